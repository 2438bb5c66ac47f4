import CLibWebSockets
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One libwebsockets client context and the thread that services it, for a `WebSocketClient`
/// between its first `connect` and its `disconnect`. Successive connection attempts (reconnects) reuse
/// the same context and thread.
///
/// Threading: `start`, `requestConnect`, `send`, `queuedBytes` and `shutDown` from any thread; they
/// talk to the service thread through `shared` (a lock) and `lws_cancel_service`, coalesced. The other
/// members belong to the service thread.
final class ClientServiceLoop: @unchecked Sendable {
    // @unchecked: `shared` is behind a lock (LockedState); every other mutable member is only touched on the service
    // thread (created in `run`, which the thread executes).

    /// Limits and timeouts of a transport.
    struct Limits: Sendable {
        var maxQueuedBytes: Int
        var maxMessageBytes: Int
        var connectTimeoutSeconds: Int
    }

    /// What `connect` asked for.
    struct ConnectRequest: Sendable {
        var url: WebSocketURL
        var subprotocol: String
        var delegate: any WebSocketClientDelegate
    }

    /// Bytes read per RECEIVE callback at most.
    static let receiveChunkBytes = 64 << 10
    /// The largest fragment written per WRITEABLE callback.
    static let sendFragmentBytes = 128 << 10
    /// How long a shutdown waits for queued messages and the closing handshake.
    static let shutdownGraceMilliseconds = 1_000

    /// The context as other threads see it: they only ever pass it to `lws_cancel_service`, which
    /// libwebsockets documents as safe from any thread.
    private struct ContextHandle: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private struct Shared {
        var context: ContextHandle?
        var thread: ServiceThread?
        var wakeupPending = false
        var acceptsRequests = true
        var shutdownRequested = false
        var pendingConnect: ConnectRequest?
        var connectedQueue: OutgoingMessageQueue?
        var writeWanted = false
    }

    private let limits: Limits
    private let shared = LockedState(Shared())

    // Service thread only.
    private var resources: ClientCResources?
    private var attempt: ClientConnectionAttempt?
    private var retiring: [UInt64: OpaquePointer] = [:]
    private var lastGeneration: UInt64 = 0
    private var exitRequested = false
    private var silenced = false

    init(limits: Limits) {
        self.limits = limits
    }

    /// Starts the service thread; false when the system refuses one.
    func start() -> Bool {
        shared.withLock { state in
            guard state.thread == nil else { return true }
            guard let thread = ServiceThread.spawn(body: { self.run() }) else {
                state.acceptsRequests = false
                return false
            }
            state.thread = thread
            return true
        }
    }

    /// Asks for a connection (replacing the current one); false when this loop is shutting down or dead.
    func requestConnect(_ request: ConnectRequest) -> Bool {
        shared.withLock { state in
            guard state.acceptsRequests else { return false }
            state.pendingConnect = request
            state.connectedQueue = nil
            Self.wake(&state)
            return true
        }
    }

    /// Queues a message on the open connection.
    func send(_ message: [UInt8]) -> Bool {
        guard let queue = shared.withLock({ $0.connectedQueue }) else { return false }
        switch queue.enqueue(message) {
        case .rejected, .overflow:
            return false
        case .queued(let needsWriteRequest):
            if needsWriteRequest {
                shared.withLock { state in
                    state.writeWanted = true
                    Self.wake(&state)
                }
            }
            return true
        }
    }

    /// Bytes queued on the open connection and not yet written.
    var queuedBytes: Int {
        shared.withLock { $0.connectedQueue }?.queuedBytes ?? 0
    }

    /// Closes the connection gracefully (bounded), ends the thread and waits for it, unless called on the
    /// thread itself (then it ends after the current callback). Idempotent.
    func shutDown() {
        let thread = shared.withLock { state -> ServiceThread? in
            state.acceptsRequests = false
            if !state.shutdownRequested {
                state.shutdownRequested = true
                state.connectedQueue = nil
                state.pendingConnect = nil
                if let context = state.context {
                    state.wakeupPending = true
                    lws_cancel_service(context.pointer)
                }
            }
            defer { state.thread = nil }
            return state.thread
        }
        guard let thread else { return }
        if thread.isCurrent {
            thread.detach()
        } else {
            thread.join()
        }
    }

    private static func wake(_ state: inout Shared) {
        guard let context = state.context, !state.wakeupPending else { return }
        state.wakeupPending = true
        lws_cancel_service(context.pointer)
    }

    // MARK: - Service thread

    private func run() {
        rewind_lws_silence_logging()
        let resources = ClientCResources(receiveBytes: Self.receiveChunkBytes, fragmentBytes: Self.sendFragmentBytes)
        var info = lws_context_creation_info()
        info.port = Int32(rewind_lws_port_no_listen())
        info.protocols = UnsafePointer(resources.protocols)
        info.options = rewind_lws_client_options()
        info.user = Unmanaged.passUnretained(self).toOpaque()
        info.pt_serv_buf_size = UInt32(Self.receiveChunkBytes)
        info.gid = -1
        info.uid = -1
        info.connect_timeout_secs = UInt32(max(1, limits.connectTimeoutSeconds))
        info.timeout_secs = UInt32(max(1, limits.connectTimeoutSeconds))
        guard let context = lws_create_context(&info) else {
            let request = shared.withLock { state -> ConnectRequest? in
                state.acceptsRequests = false
                defer { state.pendingConnect = nil }
                return state.shutdownRequested ? nil : state.pendingConnect
            }
            request?.delegate.webSocketDidDisconnect(reason: "cannot create a libwebsockets client context")
            return
        }
        self.resources = resources
        let handle = ContextHandle(pointer: context)
        shared.withLock { state in
            state.context = handle
            state.wakeupPending = false
        }
        wokenUp(context)  // requests made before the context existed
        while !exitRequested {
            if lws_service(context, 0) < 0 { break }
        }
        finishClosing(context)
        shared.withLock { state in
            state.context = nil
            state.connectedQueue = nil
            state.acceptsRequests = false
        }
        lws_context_destroy(context)
        attempt = nil
        retiring = [:]
        self.resources = nil
    }

    private func wokenUp(_ context: OpaquePointer) {
        let (request, writeWanted, shutdown) = shared.withLock { state in
            state.wakeupPending = false
            defer {
                state.pendingConnect = nil
                state.writeWanted = false
            }
            return (state.pendingConnect, state.writeWanted, state.shutdownRequested)
        }
        if shutdown {
            beginShutdown()
            return
        }
        if let request { open(request, context) }
        if writeWanted, let attempt, attempt.isEstablished, let wsi = attempt.wsi {
            lws_callback_on_writable(wsi)
        }
    }

    private func open(_ request: ConnectRequest, _ context: OpaquePointer) {
        if let current = attempt { retire(current) }
        lastGeneration += 1
        let next = ClientConnectionAttempt(
            generation: lastGeneration, url: request.url, subprotocol: request.subprotocol,
            delegate: request.delegate, maxQueuedBytes: limits.maxQueuedBytes,
            maxMessageBytes: limits.maxMessageBytes, fragmentBytes: Self.sendFragmentBytes)
        attempt = next
        var info = lws_client_connect_info()
        info.context = context
        info.address = UnsafePointer(next.address)
        info.port = Int32(request.url.port)
        info.path = UnsafePointer(next.path)
        info.host = UnsafePointer(next.hostHeader)
        info.protocol = UnsafePointer(next.subprotocol)
        info.ietf_version_or_minus_one = -1
        info.local_protocol_name = UnsafePointer(resources?.protocolName)
        info.opaque_user_data = next.tag
        let wsi = lws_client_connect_via_info(&info)
        guard attempt === next else { return }  // it already failed inside the call
        if let wsi {
            next.wsi = wsi
        } else {
            end(next, reason: "cannot connect to \(request.url)")
        }
    }

    /// Drops the current attempt without telling its delegate, closing its connection.
    private func retire(_ old: ClientConnectionAttempt) {
        attempt = nil
        old.outgoing.shutDown()
        shared.withLock { state in
            if state.connectedQueue === old.outgoing { state.connectedQueue = nil }
        }
        guard let wsi = old.wsi else { return }
        retiring[old.generation] = wsi
        if old.isEstablished {
            lws_callback_on_writable(wsi)  // WRITEABLE of a retired connection sends close 1000
        } else {
            rewind_lws_kill_async(wsi)
        }
    }

    private func beginShutdown() {
        silenced = true
        exitRequested = true
        guard let current = attempt, let wsi = current.wsi else { return }
        if current.isEstablished {
            // Written after what is queued. Ask for WRITEABLE even if a request seems pending: the
            // wakeup that carried it may be this one.
            _ = current.outgoing.requestClose(code: 1000, reason: "client disconnecting")
            lws_callback_on_writable(wsi)
        } else {
            rewind_lws_kill_async(wsi)
        }
    }

    private func finishClosing(_ context: OpaquePointer) {
        if !silenced { beginShutdown() }
        guard let tick = resources?.tick else { return }
        let deadline = MonotonicClock.milliseconds() + Self.shutdownGraceMilliseconds
        while (attempt != nil || !retiring.isEmpty) && MonotonicClock.milliseconds() < deadline {
            lws_sul_schedule(context, 0, tick, { _ in }, 10 * rewind_lws_us_per_ms())
            if lws_service(context, 0) < 0 { break }
        }
        lws_sul_cancel(tick)
    }

    /// Dispatches one libwebsockets callback.
    fileprivate func handle(_ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ input: UnsafeMutableRawPointer?,
                            _ length: Int) -> Int32 {
        if reason == LWS_CALLBACK_EVENT_WAIT_CANCELLED {
            if let context = lws_get_context(wsi) { wokenUp(context) }
            return 0
        }
        let generation = ClientConnectionAttempt.generation(of: lws_get_opaque_user_data(wsi))
        guard generation != 0 else { return 0 }
        guard let current = attempt, current.generation == generation else {
            return handleRetired(wsi, generation, reason)
        }
        switch reason {
        case LWS_CALLBACK_CLIENT_ESTABLISHED:
            current.wsi = wsi
            current.isEstablished = true
            shared.withLock { state in
                if !state.shutdownRequested && state.pendingConnect == nil {
                    state.connectedQueue = current.outgoing
                }
            }
            if !silenced { current.delegate.webSocketDidConnect() }
            return 0
        case LWS_CALLBACK_CLIENT_RECEIVE:
            return received(wsi, current, input, length)
        case LWS_CALLBACK_CLIENT_WRITEABLE:
            return writeable(wsi, current)
        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
            current.peerClose = Self.closePayload(input, length)
            return 0
        case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
            let detail = input.map { Self.text($0, length) } ?? ""
            end(current, reason: "cannot connect to \(current.url)" + (detail.isEmpty ? "" : ": \(detail)"))
            return 0
        case LWS_CALLBACK_CLIENT_CLOSED, LWS_CALLBACK_WSI_DESTROY:
            end(current, reason: closedReason(current))
            return 0
        default:
            return 0
        }
    }

    private func handleRetired(_ wsi: OpaquePointer, _ generation: UInt64, _ reason: lws_callback_reasons) -> Int32 {
        switch reason {
        case LWS_CALLBACK_CLIENT_WRITEABLE:
            guard retiring[generation] != nil else { return -1 }
            var bytes = Array("replaced by a new connection".utf8)
            lws_close_reason(wsi, LWS_CLOSE_STATUS_NORMAL, &bytes, bytes.count)
            return -1
        case LWS_CALLBACK_CLIENT_CONNECTION_ERROR, LWS_CALLBACK_CLIENT_CLOSED, LWS_CALLBACK_WSI_DESTROY:
            retiring[generation] = nil
            return 0
        case LWS_CALLBACK_CLIENT_ESTABLISHED:
            return -1
        default:
            return 0
        }
    }

    private func received(_ wsi: OpaquePointer, _ current: ClientConnectionAttempt, _ input: UnsafeMutableRawPointer?,
                          _ length: Int) -> Int32 {
        if current.outgoing.isClosing { return 0 }
        let outcome = current.assembler.appendReceived(input, length: length, from: wsi)
        switch outcome {
        case .partial:
            return 0
        case .complete(let message):
            if !silenced { current.delegate.webSocketDidReceive(message) }
            return 0
        case .tooLarge:
            var bytes = Array("message too big".utf8)
            lws_close_reason(wsi, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE, &bytes, bytes.count)
            current.sentCloseCode = 1009
            return -1
        }
    }

    private func writeable(_ wsi: OpaquePointer, _ current: ClientConnectionAttempt) -> Int32 {
        guard let buffer = resources?.writeBuffer else { return -1 }
        switch current.outgoing.writeNext(to: wsi, buffer: buffer) {
        case .wrote(let more):
            if more { lws_callback_on_writable(wsi) }
            return 0
        case .idle:
            return 0
        case .close(let request):
            var bytes = Array(request.reason.utf8.prefix(123))
            lws_close_reason(wsi, lws_close_status(rawValue: UInt32(request.code)), &bytes, bytes.count)
            current.sentCloseCode = request.code
            return -1
        case .failed:
            return -1
        }
    }

    /// The attempt is over: forget it and tell its delegate (unless the owner asked for the disconnect).
    private func end(_ ended: ClientConnectionAttempt, reason: String) {
        guard attempt === ended else { return }
        attempt = nil
        ended.outgoing.shutDown()
        shared.withLock { state in
            if state.connectedQueue === ended.outgoing { state.connectedQueue = nil }
        }
        if !silenced { ended.delegate.webSocketDidDisconnect(reason: reason) }
    }

    private func closedReason(_ attempt: ClientConnectionAttempt) -> String {
        if let peer = attempt.peerClose {
            let code = peer.code.map { " with code \($0)" } ?? ""
            return "closed by the server\(code)" + (peer.reason.isEmpty ? "" : ": \(peer.reason)")
        }
        if attempt.sentCloseCode == 1009 { return "closed: a message from the server was too big" }
        if let code = attempt.sentCloseCode { return "closed with code \(code)" }
        return attempt.isEstablished ? "connection lost" : "cannot connect to \(attempt.url): handshake failed"
    }

    private static func closePayload(_ input: UnsafeMutableRawPointer?, _ length: Int) -> (code: UInt16?, reason: String) {
        guard let input, length >= 2 else { return (nil, "") }
        let bytes = input.assumingMemoryBound(to: UInt8.self)
        let code = UInt16(bytes[0]) << 8 | UInt16(bytes[1])
        let reason = String(decoding: UnsafeBufferPointer(start: bytes + 2, count: length - 2), as: UTF8.self)
        return (code, reason)
    }

    private static func text(_ input: UnsafeMutableRawPointer, _ length: Int) -> String {
        let bytes = UnsafeBufferPointer(start: input.assumingMemoryBound(to: UInt8.self), count: length)
        return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
}

/// The C callback of the client protocol: finds the service loop through the context's user pointer.
/// Called by libwebsockets on the client's service thread (and during context creation and destruction).
func webSocketClientCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let loop = lws_context_user(context) else { return 0 }
    return Unmanaged<ClientServiceLoop>.fromOpaque(loop).takeUnretainedValue().handle(wsi, reason, input, length)
}
