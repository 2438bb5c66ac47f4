import RewindWire

/// What the timeline's commands do, implemented by the caller (the daemon glue sends them to the app).
///
/// Each method returns a short message for the status line ("jumped todo to #42") or throws an error whose
/// description is shown instead, in red.
///
/// Threading: `jump`, `skip`, `replay`, `dispatch` and `export` are called on the timeline's command thread (not
/// the UI thread), one at a time, in the order the user asked for them; they may wait for the app's answer
/// (bounded) while the screen stays live and shows "jumping to event N…". `quit()` is called on the UI thread,
/// possibly while a command is still running; commands queued behind the running one are dropped then.
package protocol TimelineActions: AnyObject {
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
