#if REWIND_LIBWEBSOCKETS
import RewindWebSocket

/// The inspector's transport on libwebsockets: an `InspectorTransport` that hands everything to the
/// shared `WebSocketClient` (module RewindWebSocket), which owns the service thread, the queues and the
/// reconnect handling. See `WebSocketClient` for the behaviour at the edges.
///
/// Threading: all methods from any thread, none blocking on the network; delegate methods arrive on the
/// client's service thread. `disconnect()` (or releasing the transport) ends the thread.
public final class LibWebSocketsTransport: InspectorTransport {
    private let client: WebSocketClient

    /// A transport that is not connected.
    /// - Parameters:
    ///   - maxQueuedBytes: the most bytes `send` may hold before the socket takes them.
    ///   - maxMessageBytes: the largest incoming message accepted.
    ///   - connectTimeoutSeconds: how long a connection attempt (TCP and handshake) may take.
    public init(maxQueuedBytes: Int = 64 << 20, maxMessageBytes: Int = 64 << 20, connectTimeoutSeconds: Int = 5) {
        client = WebSocketClient(
            maxQueuedBytes: maxQueuedBytes, maxMessageBytes: maxMessageBytes,
            connectTimeoutSeconds: connectTimeoutSeconds)
    }

    /// See `InspectorTransport.connect(to:subprotocol:delegate:)`.
    public func connect(to url: InspectorURL, subprotocol: String, delegate: any InspectorTransportDelegate) {
        client.connect(to: url.webSocketURL, subprotocol: subprotocol, delegate: DelegateBridge(delegate))
    }

    /// See `InspectorTransport.send(_:)`.
    public func send(_ message: [UInt8]) -> Bool {
        client.send(message)
    }

    /// See `InspectorTransport.queuedBytes`.
    public var queuedBytes: Int {
        client.queuedBytes
    }

    /// See `InspectorTransport.disconnect()`.
    public func disconnect() {
        client.disconnect()
    }

    /// Forwards the client's reports to the inspector's delegate; held by the client as long as the
    /// connection it was given for.
    private final class DelegateBridge: WebSocketClientDelegate {
        let target: any InspectorTransportDelegate

        init(_ target: any InspectorTransportDelegate) {
            self.target = target
        }

        func webSocketDidConnect() { target.transportDidConnect() }
        func webSocketDidReceive(_ message: [UInt8]) { target.transportDidReceive(message) }
        func webSocketDidDisconnect(reason: String) { target.transportDidDisconnect(reason: reason) }
    }
}

extension InspectorURL {
    /// The same address for the shared WebSocket client.
    var webSocketURL: WebSocketURL {
        WebSocketURL(host: host, port: port, path: path)
    }
}
#endif
