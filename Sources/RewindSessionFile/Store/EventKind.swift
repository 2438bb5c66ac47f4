/// What one row of a session's timeline records. Stored as its raw value in the `kind` column.
/// Threading: a plain value; `Sendable`.
package enum EventKind: String, Sendable, Codable, CaseIterable {
    /// An action the app dispatched; `patch` turns the previous state into the next.
    case action
    /// A full state the app sent (after `hello`, or after the outbox coalesced); recorded with a keyframe.
    case snapshot
    /// The app (or the recorder) says events were lost; `detail` says which and why.
    case dropped
    /// Something went wrong (bad message, failed command); `detail` says what.
    case error
    /// The inspector jumped the app to a recorded state.
    case jump
    /// A replay of recorded actions into the app (its events are recorded on a branch).
    case replay
    /// The app reconnected; its `seq` restarts, and a snapshot usually follows.
    case reconnect
    /// An action was skipped and the rest recomputed (the recomputation is a branch).
    case skip
    /// The inspector dispatched an action into the app.
    case dispatch
    /// A free-text annotation.
    case note
}
