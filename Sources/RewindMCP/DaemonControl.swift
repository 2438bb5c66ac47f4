import RewindWire

/// The running daemon, as `rewind mcp` reaches it for live sessions: the `sessions` listing (what each live app
/// offers) and the commands sent on to an app (`jump`, `dispatch`, `skip`, `replay`), over the control connection
/// (docs/PROTOCOL.md §5). The `rewind` executable implements it with its control client.
///
/// Threading: `request` blocks the calling thread until the daemon answers (bounded by the implementation) and may
/// be called from any thread.
package protocol DaemonControl: Sendable {
    /// Where the daemon is expected, for messages (`127.0.0.1:7723`).
    var address: String { get }

    /// Sends `command` and returns the daemon's result; throws an error whose description says what went wrong
    /// (no daemon there, the daemon's refusal, no answer in time).
    func request(_ command: ControlCommand) throws -> JSONValue
}
