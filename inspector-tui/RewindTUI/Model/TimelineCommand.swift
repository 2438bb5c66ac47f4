import RewindWire

/// Something the controller asks the app to do, in answer to a key. `TimelineApp` executes each through
/// `TimelineActions` and shows the outcome in the status line. A plain value type.
package enum TimelineCommand: Sendable, Hashable {
    /// Put the live app into the state after event `index` (Enter).
    case jump(session: String, index: Int)
    /// Skip or un-skip the action at `index` (`s`).
    case skip(session: String, index: Int)
    /// Replay recorded actions from `index` (`r`).
    case replay(session: String, from: Int)
    /// Dispatch `action` into the session's app (`d`).
    case dispatch(session: String, action: JSONValue)
    /// Export the session (`e`).
    case export(session: String)
    /// Show `text` in `$PAGER` (`o`): the terminal is handed to the pager until it exits. `name` ends the temporary
    /// file's name (`value.json`, `value.txt`).
    case openInPager(text: String, name: String)
    /// Copy `text` (`y` a value, `Y` its JSON Pointer): OSC 52 where the terminal takes it, and a file in the data
    /// directory. `what` names it in the status line.
    case copy(text: String, what: String)
    /// Search off the UI thread (`/`, `n`, `N`); the outcome comes back through `TimelineController.finishSearch`.
    case search(TimelineSearchRequest)
    /// Stop the running search (Esc while one runs).
    case cancelSearch
    /// Compute what each label of a session cost (`S`, the stats view) off the UI thread, over its first `count`
    /// events; the outcome comes back through `TimelineController.receiveStats`.
    case computeStats(session: String, count: Int)
    /// Save the pinned watches (`w`) to `pins.json` (`PinFile`), at once, on the UI thread (a few hundred bytes);
    /// `said` is the status line's sentence about the pin, which the outcome completes.
    case savePins(PinBoard, said: String)
    /// Repaint the whole terminal (Ctrl-L).
    case redraw
    /// Leave the timeline (`q`, confirmed when apps are connected).
    case quit
    /// Delete a saved session's files (`x` or Delete in the sessions pane, confirmed with `y`): carried out at once
    /// by the data source (`TimelineDataSource.deleteSession(_:)`); the outcome comes back through
    /// `TimelineController.finishDeletion(of:outcome:)`.
    case deleteSession(String)

    /// What the status line says while the command runs ("jumping to event 12…"); nil for the commands the UI
    /// carries out at once (`redraw`, `quit`, `openInPager`, `copy`, `deleteSession`) or on the search and stats
    /// threads (`search`, `computeStats`).
    package var progressDescription: String? {
        switch self {
        case .jump(_, let index): return "jumping to event \(index)…"
        case .skip(_, let index): return "skipping (or un-skipping) event \(index)…"
        case .replay(_, let index): return "replaying from event \(index)…"
        case .dispatch(_, let action): return "dispatching \(action.serialized().prefix(60))…"
        case .export: return "exporting the session…"
        case .redraw, .quit, .openInPager, .copy, .search, .cancelSearch, .deleteSession, .computeStats, .savePins:
            return nil
        }
    }
}
