import RewindMCP
import RewindWire

/// `rewind mcp`'s way to the running daemon (``DaemonControl``): a fresh control connection per request (so that
/// a daemon started or restarted after `rewind mcp` is found), through ``ControlClient`` as `rewind jump` and
/// friends use it.
///
/// Threading: immutable; `request` blocks the calling thread (bounded by ``ControlClient``'s waits).
struct DaemonControlClient: DaemonControl {
    /// Where the daemon listens, and its token.
    let connection: ConnectionOptions

    var address: String { "\(connection.host):\(connection.port)" }

    func request(_ command: ControlCommand) throws -> JSONValue {
        let client = try ControlClient(host: connection.host, port: connection.port,
                                       token: connection.effectiveToken, timeout: 1)
        if case .sessions = command { return try client.request(command) }
        // Commands sent to an app are bounded by the daemon's command timeout, which its `sessions` answer tells.
        _ = try client.request(.sessions)
        return try client.request(command)
    }
}
