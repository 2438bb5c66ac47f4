/// Receives what happens on an `InspectorTransport`'s connection.
///
/// Threading: methods are called on the transport's own thread, one at a time, and must return quickly
/// (hand off). They may call back into the transport (`send`, `connect`, `disconnect`).
public protocol InspectorTransportDelegate: AnyObject, Sendable {
    /// The WebSocket handshake completed: `send` now works.
    func transportDidConnect()

    /// A whole message arrived (reassembled from its fragments).
    func transportDidReceive(_ message: [UInt8])

    /// The connection attempt failed or the connection ended; `reason` says why, for logs. Queued messages
    /// were dropped. Called at most once per `connect`, never for a `disconnect` the owner asked for.
    func transportDidDisconnect(reason: String)
}
