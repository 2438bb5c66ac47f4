/// The WebSocket close codes (RFC 6455 §7.4.1) the Rewind server sends, for `WebSocketServer.close`, and the one it
/// reports for a connection it dropped without a closing handshake.
///
/// Threading: constants, usable from any thread.
package enum WebSocketCloseCode {
    /// 1000: the conversation is over.
    package static let normalClosure: UInt16 = 1000
    /// 1001: the server is going away (sent to every peer by `WebSocketServer.stop()`).
    package static let goingAway: UInt16 = 1001
    /// 1002: the peer broke the protocol.
    package static let protocolError: UInt16 = 1002
    /// 1006: the connection ended without a closing handshake. Never sent in a close frame (RFC 6455 reserves it
    /// for reporting); a `WebSocketServer` reports it in `didClose` for a connection it dropped because the peer did
    /// not answer pings (``WebSocketServerConfiguration/keepaliveInterval``).
    package static let abnormalClosure: UInt16 = 1006
    /// 1007: a message's payload was not what its type promised (e.g. invalid UTF-8 in a text frame).
    package static let invalidPayload: UInt16 = 1007
    /// 1008: refused by policy (origin, authentication, the delegate refusing a connection).
    package static let policyViolation: UInt16 = 1008
    /// 1009: a message was larger than the server accepts.
    package static let messageTooBig: UInt16 = 1009
    /// 1011: the server hit an unexpected condition.
    package static let internalError: UInt16 = 1011
    /// 1013: try again later; the server dropped a peer that reads too slowly (its unsent messages hit the cap).
    package static let tryAgainLater: UInt16 = 1013
}
