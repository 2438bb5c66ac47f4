import RewindSessionFile
import RewindWire

/// Where a session's committed record stands, read back from its file when an app run's session is continued (a
/// reconnect after its previous connection ended, or after a daemon restart): what the committed file says is the
/// truth, whatever an earlier ``AppIngest`` had appended but not committed.
///
/// Threading: a plain value.
package struct IngestResumePoint: Sendable, Equatable {
    /// Every action of the run up to this number is recorded or counted lost in the file.
    package var accountedThrough: UInt64
    /// The main line's state after the last event.
    package var state: JSONValue
    /// Set when the file does not know that state (the main line ends inside a `dropped` range, or after lost
    /// actions): why, and which row made it so; `state` is then the last state it knew.
    package var unknownState: UnknownStateMark?
    /// How many of the run's actions the file counts as lost (its `lost` rows).
    package var lostActions: UInt64
    /// The index of the last event in the file.
    package var lastIndex: Int64

    /// A resume point.
    package init(accountedThrough: UInt64, state: JSONValue, unknownState: UnknownStateMark?, lostActions: UInt64,
                 lastIndex: Int64) {
        self.accountedThrough = accountedThrough
        self.state = state
        self.unknownState = unknownState
        self.lostActions = lostActions
        self.lastIndex = lastIndex
    }
}
