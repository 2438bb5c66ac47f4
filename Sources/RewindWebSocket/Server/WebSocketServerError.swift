/// Why `WebSocketServer.start()` failed.
///
/// Threading: a plain value, usable from any thread.
package enum WebSocketServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The configuration cannot work (no subprotocol, a bad port or limit); the text says what.
    case invalidConfiguration(String)
    /// `start()` was already called on this server (a server starts at most once).
    case alreadyStarted
    /// The server could not listen on that address, e.g. because the port is in use; `reason` is the
    /// system's explanation when one is known.
    case cannotListen(host: String, port: Int, reason: String)
    /// The service thread could not be created.
    case cannotCreateThread

    /// A sentence for logs and command-line errors.
    package var description: String {
        switch self {
        case .invalidConfiguration(let what):
            return "invalid WebSocket server configuration: \(what)"
        case .alreadyStarted:
            return "the WebSocket server was already started"
        case .cannotListen(let host, let port, let reason):
            return "cannot listen on \(host):\(port): \(reason)"
        case .cannotCreateThread:
            return "cannot create the WebSocket server's service thread"
        }
    }
}
