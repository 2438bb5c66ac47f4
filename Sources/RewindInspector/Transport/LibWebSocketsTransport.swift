
/// The inspector's transport layer on libwebsockets: an `InspectorTransport` with its own service thread
/// (started by the first `connect`, ended by `disconnect`), reused across reconnects.
///
/// Large messages are written as fragments of at most 128 KiB; incoming messages are reassembled up to
/// `maxMessageBytes` (a larger one closes the connection with 1009). Connect to IP literals where you
/// can: libwebsockets resolves names synchronously on the service thread (`localhost` is mapped to
/// 127.0.0.1).
///
/// Threading: all methods from any thread, none blocking on the network; delegate methods arrive on the
/// service thread. `disconnect()` (or releasing the transport) ends the thread.
public final class LibWebSocketsTransport: InspectorTransport {
    private let limits: ClientServiceLoop.Limits
    private let loop = LockedState<ClientServiceLoop?>(nil)

    /// A transport that is not connected.
    /// - Parameters:
    ///   - maxQueuedBytes: the most bytes `send` may hold before the socket takes them.
    ///   - maxMessageBytes: the largest incoming message accepted.
    ///   - connectTimeoutSeconds: how long a connection attempt (TCP and handshake) may take.
    public init(maxQueuedBytes: Int = 64 << 20, maxMessageBytes: Int = 64 << 20, connectTimeoutSeconds: Int = 5) {
        limits = ClientServiceLoop.Limits(
            maxQueuedBytes: maxQueuedBytes, maxMessageBytes: maxMessageBytes,
            connectTimeoutSeconds: connectTimeoutSeconds)
    }

    deinit {
        loop.withLock { $0 }?.shutDown()
    }

    /// See `InspectorTransport.connect(to:subprotocol:delegate:)`. If the service thread cannot be
    /// created, the failure is reported to `delegate` before this returns.
    public func connect(to url: InspectorURL, subprotocol: String, delegate: any InspectorTransportDelegate) {
        let request = ClientServiceLoop.ConnectRequest(url: url, subprotocol: subprotocol, delegate: delegate)
        let (retired, started) = loop.withLock { current -> (ClientServiceLoop?, Bool) in
            if let current, current.requestConnect(request) { return (nil, true) }
            let retired = current
            let fresh = ClientServiceLoop(limits: limits)
            guard fresh.requestConnect(request), fresh.start() else {
                current = nil
                return (retired, false)
            }
            current = fresh
            return (retired, true)
        }
        retired?.shutDown()
        if !started {
            delegate.transportDidDisconnect(reason: "cannot start the transport's service thread")
        }
    }

    /// See `InspectorTransport.send(_:)`.
    public func send(_ message: [UInt8]) -> Bool {
        loop.withLock { $0 }?.send(message) ?? false
    }

    /// See `InspectorTransport.queuedBytes`.
    public var queuedBytes: Int {
        loop.withLock { $0 }?.queuedBytes ?? 0
    }

    /// See `InspectorTransport.disconnect()`.
    public func disconnect() {
        let current = loop.withLock { current -> ClientServiceLoop? in
            defer { current = nil }
            return current
        }
        current?.shutDown()
    }
}
