/// How a session's recording ended, as stored in its metadata.
/// Threading: a plain value; `Sendable`.
package enum SessionEndState: String, Sendable, Codable, CaseIterable {
    /// Still being recorded by a running process (holding the session's lock).
    case live
    /// The recording was finished deliberately: the app said `goodbye` with everything it dispatched handed on
    /// (and the daemon had accounted for its last action) before its connection closed, or the daemon shut down
    /// cleanly.
    case clean
    /// The recorder died (crash, `kill -9`, power loss), or the app's connection closed without a `goodbye` that
    /// matched what was recorded (the app was killed, crashed, lost its connection, or exited with events
    /// undelivered); every committed event is kept.
    case interrupted
}
