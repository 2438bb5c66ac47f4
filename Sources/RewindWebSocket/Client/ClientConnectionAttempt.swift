#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One `connect` of a `WebSocketClient`: from the connection request until it fails or closes.
/// Its lws connection carries the attempt's generation number as opaque user data, so callbacks of an
/// older, replaced connection are recognised and ignored.
///
/// Threading: `outgoing` is shared with sending threads (it locks); everything else is used only on the
/// client's service thread.
final class ClientConnectionAttempt {
    /// Numbers the attempts of one service loop, from 1.
    let generation: UInt64
    /// Where to connect.
    let url: WebSocketURL
    /// Who hears about this connection.
    let delegate: any WebSocketClientDelegate
    /// Messages waiting to be written.
    let outgoing: OutgoingMessageQueue
    /// The message being received.
    var assembler: IncomingMessageAssembler
    /// The lws connection, once `lws_client_connect_via_info` returned it.
    var wsi: OpaquePointer?
    /// Whether the WebSocket handshake completed.
    var isEstablished = false
    /// The close code and reason the server sent, if it sent a close frame.
    var peerClose: (code: UInt16?, reason: String)?
    /// The close code this side sent, if any.
    var sentCloseCode: UInt16?

    /// C strings handed to lws_client_connect_via_info, alive as long as the attempt.
    let address: UnsafeMutablePointer<CChar>
    let path: UnsafeMutablePointer<CChar>
    let hostHeader: UnsafeMutablePointer<CChar>
    let subprotocol: UnsafeMutablePointer<CChar>

    init(generation: UInt64, url: WebSocketURL, subprotocol: String, delegate: any WebSocketClientDelegate,
         maxQueuedBytes: Int, maxMessageBytes: Int, fragmentBytes: Int) {
        self.generation = generation
        self.url = url
        self.delegate = delegate
        outgoing = OutgoingMessageQueue(maxQueuedBytes: maxQueuedBytes, fragmentBytes: fragmentBytes)
        assembler = IncomingMessageAssembler(limit: maxMessageBytes)
        address = strdup(url.connectAddress)!
        path = strdup(url.path)!
        hostHeader = strdup(url.hostForHeader)!
        self.subprotocol = strdup(subprotocol)!
    }

    deinit {
        free(address)
        free(path)
        free(hostHeader)
        free(subprotocol)
    }

    /// The opaque user data that identifies this attempt's connection.
    var tag: UnsafeMutableRawPointer? {
        UnsafeMutableRawPointer(bitPattern: UInt(generation))
    }

    /// The generation a connection's opaque user data names (0 for connections that are not attempts).
    static func generation(of tag: UnsafeMutableRawPointer?) -> UInt64 {
        UInt64(UInt(bitPattern: tag))
    }
}
