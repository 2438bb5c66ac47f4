/// What sits on top of the panes and takes the keys while it is open. A plain value type.
package enum TimelineDialog: Sendable, Hashable {
    /// The `?` overlay listing every key; any key closes it.
    case help
    /// The bottom-line prompt for `/` or `d`.
    case prompt(PromptState)
    /// "Quit? N apps are connected" — `y` quits, `n` or Esc goes back.
    case confirmQuit
    /// The whole value under the detail cursor, wrapped and scrollable (Enter on a value, or `v`).
    case viewer(ValueViewerState)
    /// "Delete session 20261124-185312-counter-4f9a2c (counter, 1,204 events)? y/n" on the status line (`x` or
    /// Delete in the sessions pane): `y` deletes the session's files, any other key keeps them.
    case confirmDelete(TimelineSession)
    /// The stats view (`S`): each action label's count, reducer time and patch bytes, sortable; Enter goes to the
    /// selected label's events.
    case stats(StatsViewState)
}
