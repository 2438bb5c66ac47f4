/// The inspector's transport layer: everything the inspector needs from a WebSocket client. The inspector
/// talks only to this protocol; `LibWebSocketsTransport` implements it with libwebsockets (the default on
/// Linux, and built only there), `URLSessionTransport` with Foundation's `URLSessionWebSocketTask` (the
/// default on Apple platforms). Another implementation can be passed to
/// `Inspector.middleware(name:configuration:transport:)` without touching the rest.
///
/// Threading: every method may be called from any thread and none blocks on the network (`disconnect`
/// waits only for the transport's own thread to finish). Delegate methods arrive on the transport's own
/// thread.
public protocol InspectorTransport: AnyObject, Sendable {
    /// Starts connecting and returns at once. The outcome arrives through `delegate`:
    /// `transportDidConnect` once the handshake is done, or `transportDidDisconnect` if it fails (nothing
    /// listening, handshake refused). Connecting while connected or connecting replaces that connection
    /// (closed without a report). Calling it again after a failure retries; it never crashes or leaks.
    /// The delegate is held until its connection ends or `disconnect` is called.
    func connect(to url: InspectorURL, subprotocol: String, delegate: any InspectorTransportDelegate)

    /// Queues a text message; messages are written in order. Returns false, queuing nothing, when not
    /// connected or when the backlog would exceed the transport's cap.
    func send(_ message: [UInt8]) -> Bool

    /// Bytes accepted by `send` and not yet written to the socket (0 when not connected).
    var queuedBytes: Int { get }

    /// Closes the connection (with 1000, after a bounded wait for queued messages to go out) and stops
    /// the transport's thread, waiting for it unless called from a delegate method. Idempotent. The
    /// disconnect it causes is not reported, and no delegate method is called after it returns.
    func disconnect()
}
