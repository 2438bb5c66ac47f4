/// How a session's recording ended, as stored in its metadata.
/// Threading: a plain value; `Sendable`.
public enum SessionEndState: String, Sendable, Codable, CaseIterable {
    /// Still being recorded by a running process (holding the session's lock).
    case live
    /// The recording was finished deliberately: the app disconnected or the daemon shut down cleanly.
    case clean
    /// The recorder died (crash, `kill -9`, power loss) or the connection broke; every committed event is kept.
    case interrupted
}
