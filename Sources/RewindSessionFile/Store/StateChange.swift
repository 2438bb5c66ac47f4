/// One event that changed the value at a JSON Pointer: an answer of `SessionReader.history(of:through:branch:limit:)`.
/// Threading: a plain value; `Sendable`.
package struct StateChange: Sendable, Hashable {
    /// How the event changed the value.
    package enum Cause: String, Sendable, Hashable {
        /// An operation of the event's patch is at the location, under it, at one of its ancestors, or inserts
        /// into or removes from an array the location is in, at or before its position.
        case patch
        /// The event put a whole state in place (a `snapshot`, `jump`, `replay`, `reconnect`, a `dropped` row's
        /// state, or a branch's first state) whose value at the location differs from the one before.
        case replacedState
    }

    /// The event's index.
    package var index: Int64
    /// The event's branch.
    package var branch: Int64
    /// How it changed the value.
    package var cause: Cause

    /// A change.
    package init(index: Int64, branch: Int64, cause: Cause) {
        self.index = index
        self.branch = branch
        self.cause = cause
    }
}
