/// Receives what happens on a `WebSocketClient`'s connection.
///
/// Threading: methods are called on the client's service thread, one at a time, and must return quickly
/// (hand off). They may call back into the client (`send`, `connect`, `disconnect`).
package protocol WebSocketClientDelegate: AnyObject, Sendable {
    /// The WebSocket handshake completed: `send` now works.
    func webSocketDidConnect()

    /// A whole message arrived (reassembled from its fragments, at most the client's `maxMessageBytes`).
    func webSocketDidReceive(_ message: [UInt8])

    /// The connection attempt failed or the connection ended; `reason` says why, for logs (e.g.
    /// "closed by the server with code 1008: unauthorized"). Queued messages were dropped. Called at most
    /// once per `connect`, never for a `disconnect` the owner asked for.
    func webSocketDidDisconnect(reason: String)
}
