import RewindWire

/// Something the controller asks the app to do, in answer to a key. `TimelineApp` executes each through
/// `TimelineActions` and shows the outcome in the status line. A plain value type.
public enum TimelineCommand: Sendable, Hashable {
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
    /// Repaint the whole terminal (Ctrl-L).
    case redraw
    /// Leave the timeline (`q`, confirmed when apps are connected).
    case quit
}
