
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
    /// Where the connection stands with the delegate before it is admitted; changed from any thread.
    struct Admission {
        /// Whether the delegate admitted the connection (``WebSocketServer/admit(_:)``).
        var admitted = false
        /// True from a complete message received before admission until the delegate answers it (sends something
        /// or admits): the admission clock does not run while the delegate is still working on the peer's message.
        var awaitingAnswer = false
        /// Since when the admission timeout is counted (``MonotonicClock`` milliseconds): the handshake, or the
        /// delegate's last answer that did not admit (an error a peer may correct).
        var clockStartedAt: Int
    }

    /// The admission state; set from any thread.
    let admission: LockedState<Admission>
    /// The service thread's copy of ``admission`` once it was seen true (the larger message limit applies).
    var admitted = false
    /// When the handshake completed (``MonotonicClock`` milliseconds).
    let openedAt: Int
    /// When the message being received began (or reading resumed in the middle of it); nil between messages.
    var messageStartedAt: Int?
    /// True while reading is stopped (``WebSocketServer/setReceiving(_:for:)``): a message cannot progress then.
    var receivingPaused = false
    /// True once a timeout or a slow reader closed the connection (it is closed once).
    var condemned = false
    /// The reason of the close frame this side sent (with ``sentCloseCode``), if it sent one.
    var sentCloseReason: String?
    /// The reason in the close frame the peer sent (with ``peerCloseCode``), if it sent one.
    var peerCloseReason: String?
    /// Set when the server dropped the connection without a closing handshake (the peer did not answer pings):
    /// what `didClose` reports, whatever else was recorded.
    var abandonment: (code: UInt16, reason: String)?

    // Keepalive and probes (service thread).

    /// When the server last heard from the peer (``MonotonicClock`` milliseconds): bytes of a message or a pong; the
    /// handshake at first, and the moment reading resumed after ``WebSocketServer/setReceiving(_:for:)`` stopped it.
    var lastHeardAt: Int
    /// A keepalive ping is to be written at the next WRITEABLE callback.
    var keepalivePingDue = false
    /// When the unanswered keepalive ping was written (``MonotonicClock`` milliseconds); nil when none is out.
    var keepalivePingWrittenAt: Int?
    /// A probe's ping is to be written at the next WRITEABLE callback.
    var probePingDue = false
    /// A probe waiting for the peer (``WebSocketServer/probe(_:timeout:completion:)``).
    struct Probe {
        /// When it answers false (``MonotonicClock`` milliseconds).
        var deadline: Int
        /// The kernel's count of bytes received on the socket when the probe began; nil when the system cannot tell.
        var bytesReceivedAtStart: UInt64?
        /// Called once, with the answer.
        var completion: @Sendable (Bool) -> Void
    }
    /// The probes waiting for the peer, oldest first.
    var probes: [Probe] = []

    init(id: ConnectionID, wsi: OpaquePointer, maxMessageBytes: Int, maxQueuedBytes: Int, fragmentBytes: Int,
         openedAt: Int) {
        self.id = id
        self.wsi = wsi
        self.openedAt = openedAt
        self.lastHeardAt = openedAt
        self.admission = LockedState(Admission(clockStartedAt: openedAt))
        self.outgoing = OutgoingMessageQueue(maxQueuedBytes: maxQueuedBytes, fragmentBytes: fragmentBytes)
        self.assembler = IncomingMessageAssembler(limit: maxMessageBytes)
    }
}
