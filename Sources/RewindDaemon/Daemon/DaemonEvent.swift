import RewindSessionFile
import RewindWire

/// What the daemon tells its observers (the live timeline, `rewind tail` clients).
package enum DaemonEvent: Sendable {
    /// An app connected and its session began (or resumed).
    case sessionStarted(SessionID, AppIdentity)
    /// A session's app disconnected; its file is complete.
    case sessionEnded(SessionID)
    /// An event was appended to a session.
    case recorded(SessionID, RecordedEvent)
}
