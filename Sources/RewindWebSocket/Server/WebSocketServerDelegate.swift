/// Receives what happens on a `WebSocketServer`'s connections.
///
/// Threading: every method is called on the server's single service thread, one call at a time, in the
/// order things happened. Methods must return quickly (hand work off to another thread or queue); while
/// one runs, no connection is served. They may call `send`, `close` and even `stop` on the server.
package protocol WebSocketServerDelegate: AnyObject, Sendable {
    /// A client completed the handshake with one of the configured subprotocols (the first one when it
    /// named none). `origin` is its `Origin` header if it sent one (already checked against
    /// `allowedOrigins`); `peer` is its address as `ip:port`. Return false to refuse it: the connection
    /// is closed with 1008 (policy violation), and `didClose` follows as for any connection.
    func server(_ server: WebSocketServer, didOpen id: ConnectionID, subprotocol: String, origin: String?,
                peer: String) -> Bool

    /// A whole message arrived (reassembled from its fragments, at most `maxMessageBytes`). Text messages
    /// are valid UTF-8 (libwebsockets checks; a bad one closes the connection with 1007 instead). Not
    /// called after `close` was asked for that connection.
    func server(_ server: WebSocketServer, didReceive message: [UInt8], isBinary: Bool, from id: ConnectionID)

    /// The connection is gone; exactly once for every connection `didOpen` reported (through this method when
    /// the delegate does not implement ``server(_:didClose:code:reason:)``, which the server calls). `code` is the
    /// close code of the closing handshake: the one the peer sent, else the one this server sent (through
    /// `close`, 1009 for an oversized message, 1001 from `stop`, 1007 or 1002 that libwebsockets sent for
    /// invalid UTF-8 or a protocol error, when it recorded one); 1006
    /// (``WebSocketCloseCode/abnormalClosure``) when the server dropped a peer that did not answer pings
    /// (``WebSocketServerConfiguration/keepaliveInterval``); nil when the connection just ended (the peer
    /// vanished).
    func server(_ server: WebSocketServer, didClose id: ConnectionID, code: UInt16?)

    /// The connection is gone, and why; exactly once for every connection `didOpen` reported. The server calls
    /// this method; its default implementation calls ``server(_:didClose:code:)``. A delegate that wants the
    /// reason implements this method too: ``server(_:didClose:code:)`` is then never called (it is still required,
    /// and may be empty). `code` is as described for ``server(_:didClose:code:)``. `reason` is the close frame's
    /// reason: the peer's when the peer sent a close frame, else this server's (the one given to `close`, a
    /// timeout's, "server stopping", libwebsockets' own for invalid UTF-8, …); for code 1006, a sentence saying the
    /// peer did not answer a ping in time; empty when there was none. Same thread and rules as the other methods.
    func server(_ server: WebSocketServer, didClose id: ConnectionID, code: UInt16?, reason: String)
}

extension WebSocketServerDelegate {
    /// Calls ``server(_:didClose:code:)``, dropping the reason.
    package func server(_ server: WebSocketServer, didClose id: ConnectionID, code: UInt16?, reason: String) {
        self.server(server, didClose: id, code: code)
    }
}
