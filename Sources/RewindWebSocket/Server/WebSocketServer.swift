import CLibWebSockets
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The daemon's WebSocket server, built on libwebsockets: it accepts connections, reassembles incoming
/// messages and hands them to its delegate, and writes outgoing text messages. It moves whole messages
/// (`[UInt8]`, normally UTF-8 JSON) and knows nothing of the protocol inside them.
///
/// Behaviour at the edges:
/// - A handshake whose `Origin` header is not in `allowedOrigins` is refused (HTTP 403); one asking only
///   for subprotocols the server does not speak gets HTTP 400; a plain HTTP request gets 426.
/// - An incoming message larger than `maxMessageBytes` (counted across fragments) closes the connection
///   with 1009 before more than that is buffered.
/// - libwebsockets validates UTF-8 in text frames (`LWS_SERVER_OPTION_VALIDATE_UTF8`): invalid text closes
///   the connection with 1007 and is never delivered.
/// - Large outgoing messages are written as fragments of at most 128 KiB, one per WRITEABLE callback.
/// - A reader so slow that its unsent messages would exceed `maxQueuedBytesPerConnection` is dropped: its queue
///   is released and it is closed with 1013.
/// - Until the delegate admits a connection (`admit`), its messages may be at most `maxUnadmittedMessageBytes`,
///   and it is closed with 1008 when `admissionTimeout` passes; a message not finished within `messageTimeout`
///   closes the connection with 1008. A peer that does not read its close frame is cut off 5 s later.
/// - At `maxConnections` the server stops accepting until a connection ends (no busy loop when descriptors
///   run out).
/// - With keepalive on (`keepaliveInterval` > 0), a connection silent for the interval is pinged, and one that
///   does not answer within `keepaliveTimeout` of the ping being written is dropped at once without a closing
///   handshake; `didClose` reports 1006 (``WebSocketCloseCode/abnormalClosure``) and a reason saying so. Pings are
///   control frames with an 8-byte payload, written between outgoing fragments. `probe` asks one connection
///   whether its peer is still there, with a deadline. Connections are checked against the timeouts and
///   keepalive every quarter of the shortest of those settings (between 50 ms and 1 s).
///
/// Threading: one service thread (started by `start()`) runs libwebsockets and calls the delegate.
/// `send`, `close`, `probe`, `setReceiving`, `admit`, `setMaxQueuedBytes`, `stop`, `listeningPort` and
/// `connectionCount` may be called from any thread, including from delegate callbacks: sends go through a locked
/// per-connection queue and wake the service thread with `lws_cancel_service`, coalesced. The delegate is held
/// strongly until the server stops, and a started server keeps itself alive (its thread holds it) until `stop()`.
package final class WebSocketServer: @unchecked Sendable {
    // @unchecked: `shared` is behind a lock (LockedState). The other mutable members belong to the service thread
    // while it runs; before it is spawned (inside `start`, under the lock) and after it ends they are
    // only touched with the lock held by `start`/`stop`, and the thread's start and join order those
    // accesses.

    /// The configuration the server was created with.
    package let configuration: WebSocketServerConfiguration

    /// Bytes read from a socket per RECEIVE callback at most (lws rx buffer and service buffer).
    static let receiveChunkBytes = 64 << 10
    /// The largest fragment written per WRITEABLE callback.
    static let sendFragmentBytes = 128 << 10
    /// How long `stop()` waits for peers to finish the closing handshake before dropping them.
    static let shutdownGraceMilliseconds = 1_000
    /// How long a connection closed by the server (timeout, slow reader) has to take its close frame before it
    /// is cut off.
    static let condemnedGraceSeconds: Int32 = 5
    /// How often the kernel's count of bytes received is read for connections with waiting probes.
    static let probePollMilliseconds = 10

    private enum Phase {
        case idle, running, stopped
    }

    private struct Shared {
        var phase = Phase.idle
        var context: OpaquePointer?
        var thread: ServiceThread?
        var port = 0
        var wakeupPending = false
        var stopRequested = false
        var writeRequests: [ServerConnection] = []
        /// Requested changes to connections' reading (``setReceiving(_:for:)``); the latest per connection wins.
        var receiveChanges: [ConnectionID: (connection: ServerConnection, receiving: Bool)] = [:]
        var connections: [ConnectionID: ServerConnection] = [:]
        /// Probes asked for (``probe(_:timeout:completion:)``) and not yet taken by the service thread.
        var probeRequests: [ProbeRequest] = []
        /// Connections to drop (``drop(_:reason:)``) and why, not yet taken by the service thread.
        var dropRequests: [(connection: ServerConnection, reason: String)] = []
    }

    /// A probe on its way to the service thread.
    private struct ProbeRequest {
        var connection: ServerConnection
        /// When it answers false (``MonotonicClock`` milliseconds).
        var deadline: Int
        var completion: @Sendable (Bool) -> Void
    }

    private let shared = LockedState(Shared())

    // Service thread state (see the note at the top).
    private var delegate: (any WebSocketServerDelegate)?
    private var resources: ServerCResources?
    private var serviceContext: OpaquePointer?
    private var nextConnectionNumber: UInt64 = 0
    private var exitRequested = false
    private var isShuttingDown = false
    private var spareWriteRequests: [ServerConnection] = []
    private var nextSweepAt = 0
    /// The connections with probes waiting (``ServerConnection/probes``); a connection is dropped from it once it has
    /// none or has closed.
    private var probing: [ServerConnection] = []
    /// The number carried by the last ping written (its 8-byte payload, big-endian).
    private var pingNumber: UInt64 = 0

    /// Creates a server that does nothing until `start()`.
    package init(configuration: WebSocketServerConfiguration, delegate: any WebSocketServerDelegate) {
        self.configuration = configuration
        self.delegate = delegate
    }

    /// The port the server listens on once started (the one picked by the system when the configuration
    /// said 0); 0 before `start()` succeeded.
    package var listeningPort: Int {
        shared.withLock { $0.port }
    }

    /// How many connections are open right now (handshake done, not yet closed).
    package var connectionCount: Int {
        shared.withLock { $0.connections.count }
    }

    /// Binds the listening socket, starts the service thread and returns the port listened on.
    /// A server starts at most once; after a failed `start()` it may be tried again.
    /// - Throws: `WebSocketServerError`: `.cannotListen` when the address cannot be bound (port in use),
    ///   `.invalidConfiguration`, `.alreadyStarted`, `.cannotCreateThread`.
    @discardableResult
    package func start() throws -> Int {
        try validate(configuration)
        return try shared.withLock { state throws(WebSocketServerError) -> Int in
            guard state.phase == .idle else { throw .alreadyStarted }
            rewind_lws_silence_logging()
            let resources = ServerCResources(
                subprotocols: configuration.subprotocols, host: configuration.host,
                receiveBytes: Self.receiveChunkBytes, fragmentBytes: Self.sendFragmentBytes)
            var info = lws_context_creation_info()
            info.port = Int32(configuration.port)
            info.iface = UnsafePointer(resources.interface)
            info.protocols = UnsafePointer(resources.protocols)
            info.options = rewind_lws_server_options(configuration.host.contains(":") ? 1 : 0)
            info.user = Unmanaged.passUnretained(self).toOpaque()
            info.pt_serv_buf_size = UInt32(Self.receiveChunkBytes)
            info.gid = -1
            info.uid = -1
            info.max_http_header_data = 4_096  // browsers' handshakes can carry long headers
            // lws stops polling the listening socket when its descriptor table is full (accept modulation), so at
            // the limit new connections wait in the kernel's backlog instead of failing accept() with EMFILE in a
            // busy loop. See `createContext` for how the table is sized.
            guard let context = Self.createContext(&info, maxConnections: configuration.maxConnections) else {
                throw .cannotListen(host: configuration.host, port: configuration.port,
                                    reason: BindProbe.explainFailure(host: configuration.host,
                                                                      port: configuration.port))
            }
            var port = configuration.port
            if let vhost = lws_get_vhost_by_name(context, "default") {
                port = Int(lws_get_vhost_listen_port(vhost))
            }
            self.resources = resources
            self.serviceContext = context
            // The thread's closure keeps the server alive until the loop ends.
            guard let thread = ServiceThread.spawn(body: { self.serviceLoop() }) else {
                lws_context_destroy(context)
                self.resources = nil
                self.serviceContext = nil
                throw .cannotCreateThread
            }
            state.phase = .running
            state.context = context
            state.thread = thread
            state.port = port
            return port
        }
    }

    /// Closes every connection (1001, after what was queued for it, waiting up to a second for the
    /// closing handshakes), stops the service thread and waits for it, then releases the delegate.
    /// Idempotent; safe before `start()`, after a failed `start()`, and from any thread. Called from a
    /// delegate callback it does not wait: the service thread ends once the callback returns.
    package func stop() {
        let thread = shared.withLock { state -> ServiceThread? in
            switch state.phase {
            case .idle:
                state.phase = .stopped
                delegate = nil  // no service thread exists, and none can start any more
                return nil
            case .stopped:
                return nil
            case .running:
                state.phase = .stopped
                state.stopRequested = true
                if let context = state.context { lws_cancel_service(context) }
                defer { state.thread = nil }
                return state.thread
            }
        }
        guard let thread else { return }
        if thread.isCurrent {
            thread.detach()
        } else {
            thread.join()
        }
    }

    /// Queues a text message for a connection. Returns false when the connection is unknown, closed or
    /// closing, or when its backlog would exceed `maxQueuedBytesPerConnection`. Messages to one connection
    /// are written in the order they were accepted.
    package func send(_ message: [UInt8], to id: ConnectionID) -> Bool {
        guard let connection = shared.withLock({ $0.connections[id] }) else { return false }
        connection.admission.withLock { admission in
            // An answer that does not admit (an error the peer may correct): the peer's time runs again from now.
            guard !admission.admitted, admission.awaitingAnswer else { return }
            admission.awaitingAnswer = false
            admission.clockStartedAt = MonotonicClock.milliseconds()
        }
        switch connection.outgoing.enqueue(message) {
        case .rejected:
            return false
        case .overflow(let limit):
            let shown = limit >= 1 << 20 ? "\(limit >> 20) MiB" : "\(limit >> 10) KiB"
            if connection.outgoing.abort(code: WebSocketCloseCode.tryAgainLater,
                                         reason: "too slow: more than \(shown) of messages unread") {
                requestWrite(connection)
            }
            return false
        case .queued(let needsWriteRequest):
            if needsWriteRequest { requestWrite(connection) }
            return true
        }
    }

    /// Closes a connection with a close code (see `WebSocketCloseCode`: 1002, 1007, 1008, 1009, …) and a
    /// reason (cut to the 123 bytes a close frame holds), after the messages already queued for it.
    /// Nothing is delivered from the connection afterwards; `didClose` follows. No effect on a connection
    /// that is unknown, gone or already closing.
    package func close(_ id: ConnectionID, code: UInt16, reason: String) {
        guard let connection = shared.withLock({ $0.connections[id] }) else { return }
        if connection.outgoing.requestClose(code: code, reason: reason) {
            requestWrite(connection)
        }
    }

    /// Sets how many bytes may wait to be sent to one connection (instead of `maxQueuedBytesPerConnection`),
    /// e.g. more for a peer that receives rare but large messages. Any thread; no effect on a connection that is
    /// unknown or gone.
    package func setMaxQueuedBytes(_ bytes: Int, for id: ConnectionID) {
        shared.withLock { $0.connections[id] }?.outgoing.setMaxQueuedBytes(bytes)
    }

    /// Admits a connection: from now on its messages may be as large as `maxMessageBytes` and `admissionTimeout`
    /// no longer applies (the delegate calls it once the peer proved who it is, e.g. with a token). Any thread;
    /// no effect on a connection that is unknown or gone.
    package func admit(_ id: ConnectionID) {
        guard let connection = shared.withLock({ $0.connections[id] }) else { return }
        connection.admission.withLock { $0.admitted = true }
    }

    /// Stops (`false`) or resumes (`true`) reading from a connection's socket, for a receiver that cannot keep up:
    /// while reading is stopped nothing more is delivered from the connection, and what the peer sends waits in
    /// the kernel's buffers and then in the peer's own (TCP backpressure) instead of in this process. Sending to
    /// the connection is unaffected. Any thread; applied on the service thread shortly after, the latest call for a
    /// connection winning. No effect on a connection that is unknown or gone.
    package func setReceiving(_ receiving: Bool, for id: ConnectionID) {
        shared.withLock { state in
            guard let context = state.context, let connection = state.connections[id] else { return }
            state.receiveChanges[id] = (connection, receiving)
            if !state.wakeupPending {
                state.wakeupPending = true
                lws_cancel_service(context)
            }
        }
    }

    /// Drops a connection whose peer is taken for gone (it did not answer a ``probe(_:timeout:completion:)``), at once
    /// and without a closing handshake, as keepalive does: nothing more is written to it or delivered from it, sends are
    /// refused, and `didClose` reports 1006 (``WebSocketCloseCode/abnormalClosure``) with `reason` shortly after.
    /// Any thread; no effect on a connection that is unknown, closing or gone.
    package func drop(_ id: ConnectionID, reason: String) {
        shared.withLock { state in
            guard let context = state.context, let connection = state.connections[id] else { return }
            state.dropRequests.append((connection, reason))
            if !state.wakeupPending {
                state.wakeupPending = true
                lws_cancel_service(context)
            }
        }
    }

    /// Asks a connection "are you there?": pings it now and calls `completion` exactly once with the answer:
    /// `true` as soon as anything is heard from the peer after this call (any bytes arriving on the socket: the pong,
    /// a message, even a frame that is still incomplete, or bytes left waiting in the kernel while reading is stopped
    /// by ``setReceiving(_:for:)``); `false` once `timeout` seconds (from this call) pass without that, when the
    /// connection closes first (including when the server stops), and at once when the connection is unknown,
    /// closing or closed. Meant for a peer that reconnects while its old connection still looks open: a half-open
    /// connection (the peer's side is gone) never answers. Does not close anything; see
    /// ``WebSocketServerConfiguration/keepaliveInterval`` for dropping silent connections.
    ///
    /// The ping is written as a control frame at the next chance the socket takes one, between fragments of a large
    /// message if need be; if the socket cannot take it before `timeout`, the answer is `false`. Bytes the peer sent
    /// before the call that the server reads only afterwards do not count where the system can tell them apart
    /// (Linux: the kernel's count of bytes received on the socket); elsewhere anything read after the call counts.
    ///
    /// Threading: any thread, including delegate callbacks and completions; never blocks on the service thread.
    /// `completion` runs either on the calling thread before this method returns (the connection is unknown,
    /// closing or closed, or the server is not running) or on the server's service thread, like a delegate method:
    /// it must return quickly and must not wait for the service thread (it may call ``send(_:to:)``,
    /// ``close(_:code:reason:)``, ``probe(_:timeout:completion:)`` and the other methods of the server).
    /// - Parameters:
    ///   - timeout: seconds to wait for the peer; a value that is not positive (or NaN) answers `false` at the first
    ///     check, right after the ping is queued. Measured with a monotonic clock, to the millisecond.
    package func probe(_ id: ConnectionID, timeout: Double, completion: @escaping @Sendable (Bool) -> Void) {
        let deadline = MonotonicClock.milliseconds() + Self.milliseconds(timeout)
        let connection = shared.withLock { $0.connections[id] }
        let queued: Bool
        if let connection, !connection.outgoing.isClosing {
            queued = shared.withLock { state in
                guard let context = state.context, state.connections[id] != nil else { return false }
                state.probeRequests.append(
                    ProbeRequest(connection: connection, deadline: deadline, completion: completion))
                if !state.wakeupPending {
                    state.wakeupPending = true
                    lws_cancel_service(context)
                }
                return true
            }
        } else {
            queued = false
        }
        if !queued { completion(false) }
    }

    // MARK: - Any thread → service thread

    private func requestWrite(_ connection: ServerConnection) {
        shared.withLock { state in
            guard let context = state.context else { return }
            state.writeRequests.append(connection)
            if !state.wakeupPending {
                state.wakeupPending = true
                lws_cancel_service(context)
            }
        }
    }

    private func validate(_ configuration: WebSocketServerConfiguration) throws(WebSocketServerError) {
        guard !configuration.subprotocols.isEmpty else { throw .invalidConfiguration("no subprotocol") }
        guard Set(configuration.subprotocols).count == configuration.subprotocols.count else {
            throw .invalidConfiguration("a subprotocol is listed twice")
        }
        for name in configuration.subprotocols {
            let isToken = !name.isEmpty && name.utf8.allSatisfy { byte in
                byte > 32 && byte < 127 && !"()<>@,;:\\\"/[]?={}".utf8.contains(byte)
            }
            guard isToken else { throw .invalidConfiguration("subprotocol \"\(name)\" is not an HTTP token") }
        }
        guard (0...65_535).contains(configuration.port) else {
            throw .invalidConfiguration("port \(configuration.port) is out of range")
        }
        guard configuration.maxMessageBytes > 0, configuration.maxQueuedBytesPerConnection > 0,
              (configuration.maxUnadmittedMessageBytes ?? 1) > 0 else {
            throw .invalidConfiguration("message and backlog limits must be positive")
        }
        guard configuration.admissionTimeout >= 0, configuration.messageTimeout >= 0,
              configuration.admissionTimeout.isFinite, configuration.messageTimeout.isFinite else {
            throw .invalidConfiguration("timeouts must be finite and not negative")
        }
        guard configuration.keepaliveInterval >= 0, configuration.keepaliveTimeout >= 0,
              configuration.keepaliveInterval.isFinite, configuration.keepaliveTimeout.isFinite else {
            throw .invalidConfiguration("keepalive interval and timeout must be finite and not negative")
        }
        guard configuration.keepaliveInterval == 0 || configuration.keepaliveTimeout > 0 else {
            throw .invalidConfiguration("keepalive needs a positive timeout to answer pings in")
        }
        guard (configuration.maxConnections ?? 1) > 0 else {
            throw .invalidConfiguration("the connection limit must be positive")
        }
    }

    /// Creates the lws context with a descriptor table smaller than the process's limit, so that lws stops
    /// accepting before the process runs out of descriptors (a quarter of the limit, at least 64, stays free for
    /// session files and other sockets).
    ///
    /// lws sizes its table from the descriptor limit it reads at creation and looks connections up by descriptor
    /// number in it. `fd_limit_per_thread` below that limit switches lws to a linear search of the table on every
    /// event, which is used only for an explicit, small `maxConnections`. By default the soft limit is lowered
    /// for the moment of creation instead (lws keeps its direct lookup, with a smaller table) and restored right
    /// after; a connection whose descriptor number falls beyond the table is closed at once by lws.
    private static func createContext(_ info: inout lws_context_creation_info, maxConnections: Int?) -> OpaquePointer? {
        if let maxConnections {
            info.fd_limit_per_thread = UInt32(clamping: maxConnections + 3)  // + listener and wakeup pipe
            return lws_create_context(&info)
        }
        var original = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &original) == 0 else { return lws_create_context(&info) }
        let soft = Int(clamping: original.rlim_cur)
        let table = max(64, min(1 << 16, soft - max(64, soft / 4)))
        guard table < soft else { return lws_create_context(&info) }
        var lowered = original
        lowered.rlim_cur = rlim_t(table)
        let changed = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &lowered) == 0
        let context = lws_create_context(&info)
        if changed { _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &original) }
        return context
    }

    // MARK: - Service thread

    private func serviceLoop() {
        guard let context = serviceContext else { return }
        // Named after the port (`rws-7723`), so that tools and tests can find the thread of one server.
        rewind_set_thread_name("rws-\(shared.withLock { $0.port })")
        sweepIfDue(context)
        while !exitRequested {
            if lws_service(context, 0) < 0 { break }
            sweepIfDue(context)
            checkProbes(context)
        }
        if let sweep = resources?.sweep { lws_sul_cancel(sweep) }
        if let probeTimer = resources?.probeTimer { lws_sul_cancel(probeTimer) }
        closeAllConnections(context)
        shared.withLock { $0.context = nil }
        lws_context_destroy(context)  // reports CLOSED for whatever did not finish closing (their probes answer false)
        let unanswered = shared.withLock { state in
            state.writeRequests = []
            state.receiveChanges = [:]
            state.connections = [:]
            state.port = 0
            state.dropRequests = []
            defer { state.probeRequests = [] }
            return state.probeRequests  // no more can come: `probe` needs `context`
        }
        for request in unanswered { request.completion(false) }
        probing = []
        serviceContext = nil
        resources = nil
        spareWriteRequests = []
        delegate = nil
    }

    private func closeAllConnections(_ context: OpaquePointer) {
        isShuttingDown = true
        let open = shared.withLock { Array($0.connections.values) }
        for connection in open {
            _ = connection.outgoing.requestClose(code: WebSocketCloseCode.goingAway, reason: "server stopping")
            if let wsi = connection.wsi { lws_callback_on_writable(wsi) }
        }
        guard let tick = resources?.tick else { return }
        let deadline = MonotonicClock.milliseconds() + Self.shutdownGraceMilliseconds
        while shared.withLock({ !$0.connections.isEmpty }) && MonotonicClock.milliseconds() < deadline {
            lws_sul_schedule(context, 0, tick, { _ in }, 10 * rewind_lws_us_per_ms())
            if lws_service(context, 0) < 0 { break }
        }
        lws_sul_cancel(tick)
    }

    /// How often connections are checked against the timeouts and the keepalive settings: a quarter of the shortest,
    /// between 50 ms and 1 s; nil when no timeout is set and keepalive is off.
    private var sweepMilliseconds: Int? {
        var timeouts = [configuration.admissionTimeout, configuration.messageTimeout]
        if configuration.keepaliveInterval > 0 {
            timeouts += [configuration.keepaliveInterval, configuration.keepaliveTimeout]
        }
        timeouts = timeouts.filter { $0 > 0 }
        guard let shortest = timeouts.min() else { return nil }
        return max(50, min(1_000, Int(shortest * 1_000 / 4)))
    }

    /// Closes the connections whose admission or message timeout passed, pings the ones silent for the keepalive
    /// interval and drops the ones that did not answer in time, then makes sure the service loop wakes for the next
    /// check (service thread).
    private func sweepIfDue(_ context: OpaquePointer) {
        guard let interval = sweepMilliseconds, let sweep = resources?.sweep else { return }
        let now = MonotonicClock.milliseconds()
        guard now >= nextSweepAt else {
            // Woken a little early (poll's granularity) or by other work: the timer must still fire for the check.
            lws_sul_schedule(context, 0, sweep, { _ in }, lws_usec_t(max(1, nextSweepAt - now)) * rewind_lws_us_per_ms())
            return
        }
        nextSweepAt = now + interval
        lws_sul_schedule(context, 0, sweep, { _ in }, lws_usec_t(interval) * rewind_lws_us_per_ms())
        let admissionLimit = Int(configuration.admissionTimeout * 1_000)
        let messageLimit = Int(configuration.messageTimeout * 1_000)
        let keepaliveInterval = Self.milliseconds(configuration.keepaliveInterval)
        let keepaliveTimeout = Self.milliseconds(configuration.keepaliveTimeout)
        for connection in shared.withLock({ Array($0.connections.values) }) {
            guard let wsi = connection.wsi, !connection.condemned else { continue }
            if admissionLimit > 0, !isAdmitted(connection), admissionExpired(connection, now: now, limit: admissionLimit) {
                condemn(wsi, connection, reason: configuration.admissionTimeoutReason)
            } else if messageLimit > 0, !connection.receivingPaused, let started = connection.messageStartedAt,
                      now - started > messageLimit {
                condemn(wsi, connection, reason: "message not finished within \(Self.seconds(messageLimit))")
            } else if keepaliveInterval > 0 {
                keepAlive(wsi, connection, now: now, interval: keepaliveInterval, timeout: keepaliveTimeout)
            }
        }
    }

    /// Keepalive for one connection (service thread): pings it once it has been silent for `interval`, and drops it
    /// when a ping written `timeout` ago is still unanswered. Silence while reading is stopped does not count
    /// (``wokenUp()`` restarts the clock when reading resumes), and a connection whose close frame lws is already
    /// sending is left to lws's own close timeout.
    private func keepAlive(_ wsi: OpaquePointer, _ connection: ServerConnection, now: Int, interval: Int,
                           timeout: Int) {
        guard !connection.receivingPaused, connection.sentCloseCode == nil else { return }
        if let written = connection.keepalivePingWrittenAt {
            guard now - written >= timeout else { return }
            abandon(wsi, connection, reason: "did not answer a ping within \(Self.seconds(timeout)) "
                        + "(silent for \(Self.seconds(now - connection.lastHeardAt)))")
        } else if !connection.keepalivePingDue, now - connection.lastHeardAt >= interval {
            connection.keepalivePingDue = true
            lws_callback_on_writable(wsi)
        }
    }

    /// Drops a connection whose peer is taken for gone, without a closing handshake (a peer that does not answer
    /// pings would not take a close frame either): nothing more is written or delivered, sends are refused, and lws
    /// closes the socket on its next turn; `didClose` then reports 1006 and `reason` (service thread).
    private func abandon(_ wsi: OpaquePointer, _ connection: ServerConnection, reason: String) {
        connection.condemned = true
        connection.abandonment = (WebSocketCloseCode.abnormalClosure, reason)
        connection.assembler.reset()
        connection.messageStartedAt = nil
        connection.keepalivePingDue = false
        connection.probePingDue = false
        connection.outgoing.shutDown()  // drops the backlog; `send` and `close` see the connection closing
        rewind_lws_kill_async(wsi)
    }

    /// The server heard from a connection's peer (service thread): bytes of a message or a pong. Restarts the
    /// keepalive clock and answers the connection's probes.
    private func heard(_ connection: ServerConnection, _ wsi: OpaquePointer) {
        connection.lastHeardAt = MonotonicClock.milliseconds()
        connection.keepalivePingWrittenAt = nil
        connection.keepalivePingDue = false
        guard !connection.probes.isEmpty else { return }
        let received = Self.bytesReceived(wsi)
        var answered: [ServerConnection.Probe] = []
        connection.probes.removeAll { probe in
            // Bytes that arrived before the probe began and are read only now are no answer.
            if let start = probe.bytesReceivedAtStart, let received, received <= start { return false }
            answered.append(probe)
            return true
        }
        for probe in answered { probe.completion(true) }
    }

    /// Takes the probes asked for into their connections and gets their pings written (service thread). A probe of
    /// a connection that is closing or gone answers false now.
    private func startProbes(_ requests: [ProbeRequest]) {
        for request in requests {
            let connection = request.connection
            guard let wsi = connection.wsi, !connection.condemned, connection.sentCloseCode == nil,
                  !connection.outgoing.isClosing else {
                request.completion(false)
                continue
            }
            if connection.probes.isEmpty, !probing.contains(where: { $0 === connection }) { probing.append(connection) }
            connection.probes.append(ServerConnection.Probe(deadline: request.deadline,
                                                            bytesReceivedAtStart: Self.bytesReceived(wsi),
                                                            completion: request.completion))
            connection.probePingDue = true
            lws_callback_on_writable(wsi)
        }
    }

    /// Answers the probes whose peer sent bytes (the kernel's count grew, which also covers connections whose reading
    /// is stopped) or whose time is up, then wakes the service loop for the next check: every
    /// `probePollMilliseconds` while the count can be read, else at the earliest deadline (service thread).
    private func checkProbes(_ context: OpaquePointer) {
        guard !probing.isEmpty, let timer = resources?.probeTimer else { return }
        let now = MonotonicClock.milliseconds()
        var answered: [ServerConnection.Probe] = []
        var expired: [ServerConnection.Probe] = []
        var nextCheck = Int.max
        probing.removeAll { connection in
            guard let wsi = connection.wsi else { return true }  // closed: `closed` answered its probes
            let received = Self.bytesReceived(wsi)
            connection.probes.removeAll { probe in
                if let start = probe.bytesReceivedAtStart, let received, received > start {
                    answered.append(probe)
                    return true
                }
                guard now >= probe.deadline else { return false }
                expired.append(probe)
                return true
            }
            for probe in connection.probes {
                nextCheck = min(nextCheck, probe.deadline)
                if probe.bytesReceivedAtStart != nil { nextCheck = min(nextCheck, now + Self.probePollMilliseconds) }
            }
            return connection.probes.isEmpty
        }
        for probe in answered { probe.completion(true) }
        for probe in expired { probe.completion(false) }
        if nextCheck != Int.max {
            lws_sul_schedule(context, 0, timer, { _ in }, lws_usec_t(max(1, nextCheck - now)) * rewind_lws_us_per_ms())
        }
    }

    /// The kernel's count of payload bytes received on a connection's socket; nil when the system cannot tell.
    private static func bytesReceived(_ wsi: OpaquePointer) -> UInt64? {
        var bytes: UInt64 = 0
        return rewind_tcp_bytes_received(Int32(lws_get_socket_fd(wsi)), &bytes) == 0 ? bytes : nil
    }

    /// Seconds as whole milliseconds, for deadlines: NaN and negative values give 0, huge ones about 30 years.
    private static func milliseconds(_ seconds: Double) -> Int {
        guard seconds > 0 else { return 0 }
        return Int(min(seconds, 1e9) * 1_000)
    }

    /// True when a connection that is not admitted has used up its time: counted from the handshake (or the
    /// delegate's last answer that did not admit it), and not while the delegate still owes an answer to a complete
    /// message (a busy delegate must not cost a peer its connection).
    private func admissionExpired(_ connection: ServerConnection, now: Int, limit: Int) -> Bool {
        connection.admission.withLock { admission in
            !admission.awaitingAnswer && now - admission.clockStartedAt > limit
        }
    }

    /// Closes a connection the server gave up on with 1008 and `reason`, dropping its partial message; it is cut
    /// off when it does not take the close frame in time (service thread).
    private func condemn(_ wsi: OpaquePointer, _ connection: ServerConnection, reason: String) {
        connection.condemned = true
        connection.assembler.reset()
        connection.messageStartedAt = nil
        if connection.outgoing.abort(code: WebSocketCloseCode.policyViolation, reason: reason) {
            lws_callback_on_writable(wsi)
        }
        rewind_lws_kill_after(wsi, Self.condemnedGraceSeconds)
    }

    /// Whether the delegate admitted `connection`; raises its message limit the first time it is seen admitted
    /// (service thread).
    private func isAdmitted(_ connection: ServerConnection) -> Bool {
        if connection.admitted { return true }
        guard connection.admission.withLock({ $0.admitted }) else { return false }
        connection.admitted = true
        connection.assembler.limit = configuration.maxMessageBytes
        return true
    }

    private static func seconds(_ milliseconds: Int) -> String {
        milliseconds % 1_000 == 0 ? "\(milliseconds / 1_000) s" : "\(Double(milliseconds) / 1_000) s"
    }

    /// Dispatches one libwebsockets callback (service thread).
    fileprivate func handle(_ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
                            _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        switch reason {
        case LWS_CALLBACK_RECEIVE:
            return received(wsi, user, input, length)
        case LWS_CALLBACK_RECEIVE_PONG:
            if let connection = connection(user) { heard(connection, wsi) }
            return 0
        case LWS_CALLBACK_SERVER_WRITEABLE:
            return writeable(wsi, user)
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            wokenUp()
            return 0
        case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
            return confirmUpgrade(wsi)
        case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
            return acceptsOrigin(wsi) ? 0 : 1
        case LWS_CALLBACK_ESTABLISHED:
            return opened(wsi, user)
        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
            if let connection = connection(user), let input, length >= 2 {
                let bytes = UnsafeBufferPointer(start: input.assumingMemoryBound(to: UInt8.self), count: length)
                connection.peerCloseCode = UInt16(bytes[0]) << 8 | UInt16(bytes[1])
                connection.peerCloseReason = String(decoding: bytes.dropFirst(2), as: UTF8.self)
            }
            return 0
        case LWS_CALLBACK_CLOSED, LWS_CALLBACK_WSI_DESTROY:
            closed(wsi, user)
            return 0
        case LWS_CALLBACK_HTTP:
            // A plain HTTP request: this server only speaks WebSocket.
            if lws_return_http_status(wsi, 426, "WebSocket upgrade required") != 0 { return -1 }
            return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
        default:
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        }
    }

    private func connection(_ user: UnsafeMutableRawPointer?) -> ServerConnection? {
        guard let user, let raw = user.load(as: UnsafeMutableRawPointer?.self) else { return nil }
        return Unmanaged<ServerConnection>.fromOpaque(raw).takeUnretainedValue()
    }

    /// Refuses, with an HTTP status the client can see, an upgrade from a foreign origin (403), asking only for
    /// subprotocols this server does not speak, or for none when one is required (400).
    private func confirmUpgrade(_ wsi: OpaquePointer) -> Int32 {
        if !acceptsOrigin(wsi) {
            return lws_return_http_status(wsi, 403, "origin not allowed") != 0 ? -1 : 1
        }
        switch Self.header(wsi, WSI_TOKEN_PROTOCOL) {
        case .value(let requested):
            let names = requested.split(separator: ",").map { $0.trimmingSpaces() }
            if !names.contains(where: { configuration.subprotocols.contains($0) }) {
                return lws_return_http_status(wsi, 400, "unsupported subprotocol") != 0 ? -1 : 1
            }
        case .absent, .unreadable:
            if configuration.subprotocolRequired {
                let expected = configuration.subprotocols.joined(separator: " or ")
                return lws_return_http_status(wsi, 400, "a subprotocol is required: \(expected)") != 0 ? -1 : 1
            }
        }
        return 0
    }

    private func acceptsOrigin(_ wsi: OpaquePointer) -> Bool {
        if isShuttingDown { return false }
        switch Self.header(wsi, WSI_TOKEN_ORIGIN) {
        case .absent:
            return true
        case .unreadable:
            return false
        case .value(let origin):
            return configuration.allowedOrigins.contains(origin)
        }
    }

    private func opened(_ wsi: OpaquePointer, _ user: UnsafeMutableRawPointer?) -> Int32 {
        guard let user else { return -1 }
        nextConnectionNumber += 1
        let id = ConnectionID(rawValue: nextConnectionNumber)
        let connection = ServerConnection(
            id: id, wsi: wsi,
            maxMessageBytes: min(configuration.maxMessageBytes,
                                 configuration.maxUnadmittedMessageBytes ?? configuration.maxMessageBytes),
            maxQueuedBytes: configuration.maxQueuedBytesPerConnection, fragmentBytes: Self.sendFragmentBytes,
            openedAt: MonotonicClock.milliseconds())
        user.storeBytes(of: Unmanaged.passRetained(connection).toOpaque(), as: UnsafeMutableRawPointer?.self)
        shared.withLock { $0.connections[id] = connection }

        var subprotocol = configuration.subprotocols[0]
        if let index = lws_get_protocol(wsi).map({ Int($0.pointee.id) }),
           configuration.subprotocols.indices.contains(index) {
            subprotocol = configuration.subprotocols[index]
        }
        let origin: String?
        if case .value(let value) = Self.header(wsi, WSI_TOKEN_ORIGIN) { origin = value } else { origin = nil }
        let peer = PeerAddress.describe(socket: Int32(lws_get_socket_fd(wsi)))

        let accepted = !isShuttingDown && (delegate?.server(
            self, didOpen: id, subprotocol: subprotocol, origin: origin, peer: peer) ?? false)
        if !accepted {
            let code = isShuttingDown ? WebSocketCloseCode.goingAway : WebSocketCloseCode.policyViolation
            if connection.outgoing.requestClose(code: code, reason: isShuttingDown ? "server stopping" : "refused") {
                lws_callback_on_writable(wsi)
            }
        }
        return 0
    }

    private func received(_ wsi: OpaquePointer, _ user: UnsafeMutableRawPointer?,
                          _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        guard let connection = connection(user) else { return -1 }
        heard(connection, wsi)
        if connection.outgoing.isClosing { return 0 }
        let admitted = isAdmitted(connection)
        let outcome = connection.assembler.appendReceived(input, length: length, from: wsi)
        switch outcome {
        case .partial:
            if connection.messageStartedAt == nil { connection.messageStartedAt = MonotonicClock.milliseconds() }
            return 0
        case .complete(let message):
            connection.messageStartedAt = nil
            if !admitted { connection.admission.withLock { $0.awaitingAnswer = true } }
            delegate?.server(self, didReceive: message, isBinary: lws_frame_is_binary(wsi) != 0, from: connection.id)
            return 0
        case .tooLarge:
            connection.messageStartedAt = nil
            let reason = admitted ? "message too big"
                : "message too big before authentication (limit \(connection.assembler.limit) bytes)"
            return closeNow(wsi, connection, code: WebSocketCloseCode.messageTooBig, reason: reason)
        }
    }

    private func writeable(_ wsi: OpaquePointer, _ user: UnsafeMutableRawPointer?) -> Int32 {
        guard let connection = connection(user), let buffer = resources?.writeBuffer else { return -1 }
        if connection.abandonment != nil { return 0 }  // lws closes it on its next turn; nothing more goes out
        if connection.keepalivePingDue || connection.probePingDue {
            return writePing(wsi, connection, buffer: buffer)
        }
        switch connection.outgoing.writeNext(to: wsi, buffer: buffer) {
        case .wrote(let more):
            if more { lws_callback_on_writable(wsi) }
            return 0
        case .idle:
            return 0
        case .close(let request):
            return closeNow(wsi, connection, code: request.code, reason: request.reason)
        case .failed:
            return -1
        }
    }

    /// Writes a ping (the WRITEABLE callback's one write), for keepalive and probes alike, and asks for another
    /// callback for the outgoing queue. A control frame may come between the fragments of a message (RFC 6455 §5.4;
    /// lws frames each `lws_write` whole and keeps no state between data fragments that a control frame would
    /// disturb, and writes its own pongs the same way), so a ping does not wait for a large message to finish.
    /// The payload is the ping's number, 8 bytes (never empty: lws does not report an empty pong).
    private func writePing(_ wsi: OpaquePointer, _ connection: ServerConnection,
                           buffer: UnsafeMutablePointer<UInt8>) -> Int32 {
        let forKeepalive = connection.keepalivePingDue
        connection.keepalivePingDue = false
        connection.probePingDue = false
        pingNumber &+= 1
        let payload = buffer + rewind_lws_pre()
        for index in 0..<8 { payload[index] = UInt8(truncatingIfNeeded: pingNumber >> (56 - 8 * UInt64(index))) }
        if rewind_lws_write_ping(wsi, payload, 8) < 0 { return -1 }
        if forKeepalive { connection.keepalivePingWrittenAt = MonotonicClock.milliseconds() }
        lws_callback_on_writable(wsi)  // the queue's turn: it may hold messages or a close (if not, it goes idle)
        return 0
    }

    /// Sets the close frame lws sends as it closes the connection; the caller returns -1 to lws.
    private func closeNow(_ wsi: OpaquePointer, _ connection: ServerConnection, code: UInt16, reason: String) -> Int32 {
        var bytes = Array(reason.utf8.prefix(123))
        while !bytes.isEmpty, String(validating: bytes, as: UTF8.self) == nil { bytes.removeLast() }
        bytes.withUnsafeMutableBufferPointer { buffer in
            lws_close_reason(wsi, lws_close_status(rawValue: UInt32(code)), buffer.baseAddress, buffer.count)
        }
        connection.sentCloseCode = code
        connection.sentCloseReason = String(decoding: bytes, as: UTF8.self)
        return -1
    }

    private func closed(_ wsi: OpaquePointer, _ user: UnsafeMutableRawPointer?) {
        guard let user, let raw = user.load(as: UnsafeMutableRawPointer?.self) else { return }
        user.storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
        let connection = Unmanaged<ServerConnection>.fromOpaque(raw).takeRetainedValue()
        connection.wsi = nil
        connection.outgoing.shutDown()
        connection.assembler.reset()
        shared.withLock { $0.connections[connection.id] = nil }
        var code: UInt16?
        var reason = ""
        if let abandonment = connection.abandonment {
            code = abandonment.code
            reason = abandonment.reason
        } else if let peerCode = connection.peerCloseCode {
            code = peerCode
            reason = connection.peerCloseReason ?? ""
        } else if let sentCode = connection.sentCloseCode {
            code = sentCode
            reason = connection.sentCloseReason ?? ""
        } else if lws_get_close_length(wsi) >= 2, let payload = lws_get_close_payload(wsi) {
            // A close lws started itself (invalid UTF-8, a protocol error).
            let bytes = UnsafeBufferPointer(start: UnsafePointer(payload), count: Int(lws_get_close_length(wsi)))
            code = UInt16(bytes[0]) << 8 | UInt16(bytes[1])
            reason = String(decoding: bytes.dropFirst(2), as: UTF8.self)
        }
        let probes = connection.probes
        connection.probes = []
        connection.keepalivePingDue = false
        connection.probePingDue = false
        for probe in probes { probe.completion(false) }
        delegate?.server(self, didClose: connection.id, code: code, reason: reason)
    }

    private func wokenUp() {
        var receiveChanges: [ConnectionID: (connection: ServerConnection, receiving: Bool)] = [:]
        var probeRequests: [ProbeRequest] = []
        var dropRequests: [(connection: ServerConnection, reason: String)] = []
        let stopRequested = shared.withLock { state -> Bool in
            state.wakeupPending = false
            swap(&state.writeRequests, &spareWriteRequests)
            if !state.receiveChanges.isEmpty { swap(&state.receiveChanges, &receiveChanges) }
            if !state.probeRequests.isEmpty { swap(&state.probeRequests, &probeRequests) }
            if !state.dropRequests.isEmpty { swap(&state.dropRequests, &dropRequests) }
            return state.stopRequested
        }
        for (connection, reason) in dropRequests {
            guard let wsi = connection.wsi, !connection.condemned else { continue }
            abandon(wsi, connection, reason: reason)
        }
        for (connection, receiving) in receiveChanges.values {
            guard let wsi = connection.wsi else { continue }
            let wasPaused = connection.receivingPaused
            connection.receivingPaused = !receiving
            // A message cannot progress while reading is stopped: its time limit starts again on resuming.
            if receiving, connection.messageStartedAt != nil {
                connection.messageStartedAt = MonotonicClock.milliseconds()
            }
            // Nor can the peer be heard: its silence is counted again from now (an unanswered ping included).
            if receiving, wasPaused {
                connection.lastHeardAt = MonotonicClock.milliseconds()
                connection.keepalivePingWrittenAt = nil
            }
            // Applied now (we are not in a callback of that connection), through the user reason bit only.
            let change = (receiving ? LWS_RXFLOW_REASON_APPLIES_ENABLE : LWS_RXFLOW_REASON_APPLIES_DISABLE)
                | LWS_RXFLOW_REASON_USER_BOOL | LWS_RXFLOW_REASON_FLAG_PROCESS_NOW
            _ = lws_rx_flow_control(wsi, Int32(change))
        }
        for connection in spareWriteRequests {
            if let wsi = connection.wsi { lws_callback_on_writable(wsi) }
        }
        spareWriteRequests.removeAll(keepingCapacity: true)
        startProbes(probeRequests)
        if stopRequested { exitRequested = true }
    }

    // MARK: - Helpers

    private enum Header {
        case absent, unreadable, value(String)
    }

    /// The request header `token`: absent, present (an empty value is a value: `Origin:` is not "no origin"), or
    /// unreadable.
    private static func header(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> Header {
        let total = Int(lws_hdr_total_length(wsi, token))
        guard total > 0 else {
            // libwebsockets 4.1 gives an empty header the length of an absent one; only its fragment copy tells them
            // apart: -1 when the request has no such header, 0 when its value is empty.
            var probe: CChar = 0
            return lws_hdr_copy_fragment(wsi, &probe, 1, token, 0) < 0 ? .absent : .value("")
        }
        var characters = [CChar](repeating: 0, count: total + 1)
        let copied = Int(lws_hdr_copy(wsi, &characters, Int32(characters.count), token))
        guard copied >= 0 else { return .unreadable }
        let bytes = characters.prefix(copied).map { UInt8(bitPattern: $0) }
        return .value(String(decoding: bytes, as: UTF8.self))
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

/// The C callback of every server protocol: finds the server through the context's user pointer.
/// Called by libwebsockets on the service thread (and during context creation and destruction).
func webSocketServerCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let server = lws_context_user(context) else { return 0 }
    return Unmanaged<WebSocketServer>.fromOpaque(server).takeUnretainedValue()
        .handle(wsi, reason, user, input, length)
}
