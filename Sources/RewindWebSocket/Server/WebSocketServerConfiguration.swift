/// How a `WebSocketServer` listens and what it accepts.
///
/// Threading: a plain value, usable from any thread; the server copies it at `init`.
package struct WebSocketServerConfiguration: Sendable, Equatable {
    /// The address to listen on: an IPv4 or IPv6 literal (`"127.0.0.1"`, `"::1"`), `"localhost"` (taken as
    /// 127.0.0.1), or `"0.0.0.0"` / `""` for every IPv4 interface.
    package var host: String
    /// The TCP port; 0 lets the system pick a free one (`start()` returns it).
    package var port: Int
    /// The WebSocket subprotocols accepted, e.g. `["rewind.v1", "rewind.control.v1"]`. A client naming
    /// none of them is refused with HTTP 400; a client naming no subprotocol at all too, unless
    /// ``subprotocolRequired`` is false (it then gets the first). Must not be empty.
    package var subprotocols: [String]
    /// Whether a handshake must name a subprotocol (HTTP 400 otherwise): the subprotocol says what kind of peer
    /// connects (an app or a control client), so the daemon takes none for granted. Default true.
    package var subprotocolRequired = true
    /// Browser origins allowed to connect. A handshake carrying an `Origin` header not in this set is
    /// refused with HTTP 403; a handshake without `Origin` (any non-browser client) is accepted.
    package var allowedOrigins: Set<String>
    /// The largest incoming message, counted across fragments; a larger one closes the connection with
    /// 1009 (message too big) before more than this is buffered.
    package var maxMessageBytes: Int
    /// The most bytes queued for sending to one connection; `send` refuses a message beyond it and closes the
    /// connection with 1013 (a reader that slow would otherwise grow the server's memory without bound). A single
    /// message larger than the cap is accepted when nothing else is queued.
    package var maxQueuedBytesPerConnection: Int
    /// The largest incoming message before the delegate admitted the connection (``WebSocketServer/admit(_:)``,
    /// e.g. once a token was checked); nil means ``maxMessageBytes``. A larger one closes the connection with 1009
    /// before more than this is buffered, so unauthenticated peers cannot make the server hold big messages.
    package var maxUnadmittedMessageBytes: Int?
    /// Seconds a connection may stay open without being admitted; then it is closed with 1008 and
    /// ``admissionTimeoutReason``. 0 means no limit. The clock stops while the delegate has not answered a complete
    /// message of the peer (the delegate must then admit the connection, answer, or close it: however long it
    /// takes, a busy server does not cost a peer that spoke its connection), and starts again from an answer that
    /// did not admit it.
    package var admissionTimeout: Double = 0
    /// The close reason sent when ``admissionTimeout`` passes (what the peer was expected to do).
    package var admissionTimeoutReason = "not admitted in time"
    /// Seconds a message may take from its first byte to its last (time while reading is stopped by
    /// ``WebSocketServer/setReceiving(_:for:)`` does not count); a peer that does not finish it in time is closed
    /// with 1008. 0 means no limit.
    package var messageTimeout: Double = 0
    /// Seconds a connection may stay silent before the server pings it (keepalive); 0, the default, turns keepalive
    /// off. Silence is time since the server last heard from the peer: any bytes of a message, partial frames
    /// included, or a pong (pings the peer sends itself are answered by libwebsockets and do not count). A peer that
    /// does not answer within ``keepaliveTimeout`` of the ping being written to its socket is taken for gone (a
    /// half-open connection: the peer's machine slept, roamed or lost its route) and dropped at once, without a
    /// closing handshake (it would not take a close frame): `didClose` reports
    /// ``WebSocketCloseCode/abnormalClosure`` (1006) with a reason saying it did not answer a ping in time. Time while
    /// reading from the connection is stopped (``WebSocketServer/setReceiving(_:for:)``) does not count: the peer's
    /// bytes wait unread then, and its silence is counted again from when reading resumes. A ping waiting for the
    /// socket to take it (behind a fragment the socket cannot take yet) counts only from when it is written, so a
    /// peer that stopped reading while the server had much to send it is not caught by keepalive. Must be finite and
    /// not negative. Connections are checked every quarter of the shortest of this, ``keepaliveTimeout``,
    /// ``admissionTimeout`` and ``messageTimeout`` (between 50 ms and 1 s), so a dead peer is dropped
    /// `keepaliveInterval + keepaliveTimeout` after it was last heard, plus up to two such periods.
    package var keepaliveInterval: Double = 0
    /// Seconds a peer has to answer a keepalive ping (anything heard from it counts, not just the pong), counted from
    /// when the ping was written to the socket; 10 by default. Used only when ``keepaliveInterval`` is positive, and
    /// then it must be positive; in any case finite and not negative (``WebSocketServer/start()`` checks).
    package var keepaliveTimeout: Double = 10
    /// The most connections served at once; at the limit the server stops accepting (new connections wait in
    /// the kernel's backlog) instead of failing `accept` in a loop when descriptors run out. nil means: as many
    /// as the process's descriptor limit less a quarter of it (at least 64 descriptors stay free for files and
    /// other sockets). Meant for small limits: with a value, libwebsockets finds connections by a linear search.
    package var maxConnections: Int?

    /// A configuration; the defaults are the daemon's: loopback port 7723, subprotocol `rewind.v1`,
    /// no browser origins, 64 MiB messages and 64 MiB of backlog per connection (a connection whose unsent
    /// messages would exceed it is closed with 1013, see ``WebSocketServer/send(_:to:)``), no timeouts, no keepalive.
    package init(
        host: String = "127.0.0.1",
        port: Int = 7723,
        subprotocols: [String] = ["rewind.v1"],
        allowedOrigins: Set<String> = [],
        maxMessageBytes: Int = 64 << 20,
        maxQueuedBytesPerConnection: Int = 64 << 20
    ) {
        self.host = host
        self.port = port
        self.subprotocols = subprotocols
        self.allowedOrigins = allowedOrigins
        self.maxMessageBytes = maxMessageBytes
        self.maxQueuedBytesPerConnection = maxQueuedBytesPerConnection
    }
}
