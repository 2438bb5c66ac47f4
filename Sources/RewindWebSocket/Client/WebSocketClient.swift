/// A WebSocket client on libwebsockets, with its own service thread (started by the first `connect`, ended
/// by `disconnect`) reused across reconnects. The inspector's transport and the `rewind` command line's
/// control connection both use it.
///
/// Large messages are written as fragments of at most 128 KiB; incoming messages are reassembled up to
/// `maxMessageBytes` (a larger one closes the connection with 1009); libwebsockets validates the UTF-8
/// of incoming text frames. Connect to IP literals where you can: libwebsockets resolves names
/// synchronously on the service thread (`localhost` is mapped to 127.0.0.1).
///
/// Threading: all methods from any thread, none blocking on the network (`disconnect` waits only for the
/// client's own thread to finish, and not when called from a delegate method); delegate methods arrive
/// on the service thread. `disconnect()` (or releasing the client) ends the thread.
package final class WebSocketClient: Sendable {
    private let limits: ClientServiceLoop.Limits
    private let loop = LockedState<ClientServiceLoop?>(nil)

    /// A client that is not connected.
    /// - Parameters:
    ///   - maxQueuedBytes: the most bytes `send` may hold before the socket takes them.
    ///   - maxMessageBytes: the largest incoming message accepted.
    ///   - connectTimeoutSeconds: how long a connection attempt (TCP and handshake) may take.
    package init(maxQueuedBytes: Int = 64 << 20, maxMessageBytes: Int = 64 << 20, connectTimeoutSeconds: Int = 5) {
        limits = ClientServiceLoop.Limits(
            maxQueuedBytes: maxQueuedBytes, maxMessageBytes: maxMessageBytes,
            connectTimeoutSeconds: connectTimeoutSeconds)
    }

    deinit {
        loop.withLock { $0 }?.shutDown()
    }

    /// Starts connecting and returns at once. The outcome arrives through `delegate`: `webSocketDidConnect`
    /// once the handshake is done, or `webSocketDidDisconnect` if it fails (nothing listening, handshake
    /// refused). Connecting while connected or connecting replaces that connection (closed with 1000,
    /// without a report). Calling it again after a failure retries. The delegate is held until its
    /// connection ends or `disconnect` is called. If the service thread cannot be created, the failure is
    /// reported to `delegate` before this returns.
    package func connect(to url: WebSocketURL, subprotocol: String, delegate: any WebSocketClientDelegate) {
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
            delegate.webSocketDidDisconnect(reason: "cannot start the WebSocket client's service thread")
        }
    }

    /// Queues a text message; messages are written in order. Returns false, queuing nothing, when not
    /// connected or when the backlog would exceed `maxQueuedBytes` (a single larger message is accepted
    /// when nothing else is queued).
    package func send(_ message: [UInt8]) -> Bool {
        loop.withLock { $0 }?.send(message) ?? false
    }

    /// Bytes accepted by `send` and not yet written to the socket (0 when not connected).
    package var queuedBytes: Int {
        loop.withLock { $0 }?.queuedBytes ?? 0
    }

    /// Closes the connection (with 1000, after a bounded wait of about a second for queued messages to go
    /// out) and stops the service thread, waiting for it unless called from a delegate method. Idempotent.
    /// The disconnect it causes is not reported, and no delegate method is called after it returns.
    package func disconnect() {
        let current = loop.withLock { current -> ClientServiceLoop? in
            defer { current = nil }
            return current
        }
        current?.shutDown()
    }
}
