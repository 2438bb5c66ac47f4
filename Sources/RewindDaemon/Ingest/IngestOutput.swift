import RewindSessionFile
import RewindWebSocket
import RewindWire

/// What ``AppIngest`` asks its driver to do, in order: append a row to the session's recording, send a message to
/// a connection, or close one. The driver carries them out exactly in the order given.
///
/// Threading: a plain value.
package enum IngestOutput: Sendable, Equatable {
    /// Append `row` to the recording; the recording must give it `row.index` (the machine numbers every row of the
    /// session, so that it can acknowledge what a commit covers).
    case append(IngestRow)
    /// Send `message` on `connection`.
    case send(DaemonMessage, to: ConnectionID)
    /// Close `connection` with a WebSocket close code and a reason (after the messages sent before).
    case close(ConnectionID, code: UInt16, reason: String)
}

/// One row ``AppIngest`` appends to the recording: the event, the state after it (the recording writes it as a
/// keyframe when its policy says so, or when `forceKeyframe`), and the index the row gets.
///
/// Threading: a plain value.
package struct IngestRow: Sendable, Equatable {
    /// The row's index in the session (1, 2, … over all branches).
    package var index: Int64
    /// What is recorded.
    package var event: NewEvent
    /// The state after the event, as far as the record knows it (the last known state while it is unknown).
    package var stateAfter: JSONValue
    /// True when the state after the event does not follow from its patch (a whole state put in place).
    package var forceKeyframe: Bool
}
