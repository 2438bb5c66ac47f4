import RewindWire

/// What the timeline's commands do, implemented by the caller (the daemon glue sends them to the app).
///
/// Each method returns a short message for the status line ("jumped todo to #42") or throws an error whose
/// description is shown instead, in red.
///
/// Threading: called on the UI thread. Return quickly: hand the work to the network/recording threads and
/// report "sent"; a slow action freezes the screen for its duration.
public protocol TimelineActions: AnyObject {
    /// Enter on an event: put the live app into the state after event `index`.
    func jump(session: String, index: Int) throws -> String
    /// `s`: skip the action at `index` (or un-skip it, when it is skipped) and recompute the states after it.
    func skip(session: String, index: Int) throws -> String
    /// `r`: replay the recorded actions from `index` into the app.
    func replay(session: String, from index: Int) throws -> String
    /// `d`: dispatch an action, given as the JSON the user typed, into the session's app.
    func dispatch(session: String, action: JSONValue) throws -> String
    /// `e`: export the session; the message should say where it went.
    func export(session: String) throws -> String
    /// The user quit (after confirming, when apps are connected) or a termination signal arrived; called once,
    /// just before `TimelineApp.run()` returns.
    func quit()
}
