
/// One accepted WebSocket connection of a `WebSocketServer`: its outgoing queue (shared with the threads
/// that send) and its receive-side state (service thread only).
///
/// Threading: `id` and `outgoing` from any thread; every other member only on the service thread. The
/// service thread keeps one retain in the connection's lws per-session memory from ESTABLISHED to CLOSED.
final class ServerConnection: @unchecked Sendable {
    // @unchecked: the mutable members below `outgoing` are confined to the server's service thread.

    /// The connection's identity.
    let id: ConnectionID
    /// Messages waiting to be written, and a pending close.
    let outgoing: OutgoingMessageQueue

    /// The lws connection; nil once it has closed.
    var wsi: OpaquePointer?
    /// The message being received.
    var assembler: IncomingMessageAssembler
    /// The close code the peer sent, if it sent one.
    var peerCloseCode: UInt16?
    /// The close code this side sent, if it sent one.
    var sentCloseCode: UInt16?

    init(id: ConnectionID, wsi: OpaquePointer, maxMessageBytes: Int, maxQueuedBytes: Int, fragmentBytes: Int) {
        self.id = id
        self.wsi = wsi
        self.outgoing = OutgoingMessageQueue(maxQueuedBytes: maxQueuedBytes, fragmentBytes: fragmentBytes)
        self.assembler = IncomingMessageAssembler(limit: maxMessageBytes)
    }
}
