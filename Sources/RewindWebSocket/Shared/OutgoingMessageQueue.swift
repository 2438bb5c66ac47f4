import CLibWebSockets

/// The outgoing text messages of one WebSocket connection: any thread appends whole messages; the
/// libwebsockets service thread writes them out one fragment per WRITEABLE callback, then a close frame
/// if one was asked for.
///
/// Threading: `enqueue`, `requestClose`, `queuedBytes` and `isClosing` from any thread (they take a lock);
/// `writeNext` and `shutDown` only on the service thread (it owns the message being written).
final class OutgoingMessageQueue: @unchecked Sendable {
    // @unchecked: `shared` is behind a lock (LockedState); `writing`, `pending`, `pendingIndex` and `offset` are only
    // touched by the service thread, in `writeNext` and `shutDown`.

    /// A close frame to send once the queued messages are out.
    struct CloseRequest: Sendable, Equatable {
        var code: UInt16
        var reason: String
    }

    /// What `enqueue` did.
    enum EnqueueResult: Equatable {
        /// Refused: the connection is closing or gone.
        case rejected
        /// Refused: the backlog would exceed its cap (the reader is too slow); the caller should drop the
        /// connection with ``abort(code:reason:)``. Carries the cap.
        case overflow(limit: Int)
        /// Queued; when `needsWriteRequest` the caller must get a WRITEABLE callback requested.
        case queued(needsWriteRequest: Bool)
    }

    /// What one `writeNext` step did.
    enum Step: Equatable {
        /// Wrote a fragment; when `more`, ask for another WRITEABLE callback.
        case wrote(more: Bool)
        /// Nothing to write; the queue is idle until the next `enqueue` reports `needsWriteRequest`.
        case idle
        /// Everything is written: send this close frame and close.
        case close(CloseRequest)
        /// lws_write failed: close the connection.
        case failed
    }

    private struct Shared {
        var incoming: [[UInt8]] = []
        var queuedBytes = 0
        var closeRequest: CloseRequest?
        /// The backlog cap (``setMaxQueuedBytes(_:)``).
        var maxQueuedBytes: Int
        /// The close must go out now, before whatever is queued (``abort(code:reason:)``).
        var closeNow = false
        var writeRequested = false
        var isOpen = true
    }

    private let shared: LockedState<Shared>
    private let fragmentBytes: Int

    /// What one queued message costs beyond its bytes: its array's header and the allocator's rounding and
    /// bookkeeping (about 48 bytes on 64-bit Linux) and its slot in the queue. Counted against the backlog cap, so
    /// that a reader sent many small messages (a `tail` viewer, an app sent error replies) is held to the cap in
    /// memory, not only in payload bytes (10 paused viewers took 309 MB against 10 × 16 MiB before).
    static let perMessageOverhead = 64

    /// What `message` counts against the backlog cap: its storage (`capacity`) plus ``perMessageOverhead``.
    static func cost(of message: [UInt8]) -> Int {
        max(message.count, message.capacity) + perMessageOverhead
    }

    // Service thread only.
    private var pending: [[UInt8]] = []
    private var pendingIndex = 0
    private var writing: [UInt8]?
    private var offset = 0

    /// - Parameters:
    ///   - maxQueuedBytes: backlog cap; a message that would push the queued bytes beyond it is refused
    ///     (a single message larger than the cap is accepted when nothing else is queued).
    ///   - fragmentBytes: the largest fragment written per WRITEABLE callback.
    init(maxQueuedBytes: Int, fragmentBytes: Int) {
        self.shared = LockedState(Shared(maxQueuedBytes: maxQueuedBytes))
        self.fragmentBytes = max(1, fragmentBytes)
    }

    /// Changes the backlog cap for the messages enqueued from now on. Any thread.
    func setMaxQueuedBytes(_ bytes: Int) {
        shared.withLock { $0.maxQueuedBytes = max(1, bytes) }
    }

    /// Bytes accepted by `enqueue` and not yet handed to lws_write, each message counted at its ``cost(of:)``.
    var queuedBytes: Int {
        shared.withLock { $0.queuedBytes }
    }

    /// Whether a close was requested (incoming data after that is ignored).
    var isClosing: Bool {
        shared.withLock { $0.closeRequest != nil || !$0.isOpen }
    }

    /// Appends a whole message.
    func enqueue(_ message: [UInt8]) -> EnqueueResult {
        shared.withLock { state in
            guard state.isOpen, state.closeRequest == nil else { return .rejected }
            // Its storage, not its count: a message built by appending holds up to twice its bytes.
            let cost = Self.cost(of: message)
            if state.queuedBytes > 0, state.queuedBytes + cost > state.maxQueuedBytes {
                return .overflow(limit: state.maxQueuedBytes)
            }
            state.incoming.append(message)
            state.queuedBytes += cost
            if state.writeRequested { return .queued(needsWriteRequest: false) }
            state.writeRequested = true
            return .queued(needsWriteRequest: true)
        }
    }

    /// Asks for a close frame after the messages queued so far; later messages are refused. The first
    /// request wins. Returns whether the caller must get a WRITEABLE callback requested.
    func requestClose(code: UInt16, reason: String) -> Bool {
        shared.withLock { state in
            guard state.isOpen, state.closeRequest == nil else { return false }
            state.closeRequest = CloseRequest(code: code, reason: reason)
            if state.writeRequested { return false }
            state.writeRequested = true
            return true
        }
    }

    /// Drops everything queued and asks for a close frame with `code` and `reason` right away (a slow reader is
    /// dropped: its unsent messages are released now). Later messages are refused; an earlier close request is
    /// replaced. Returns whether the caller must get a WRITEABLE callback requested.
    func abort(code: UInt16, reason: String) -> Bool {
        let dropped = shared.withLock { state -> [[UInt8]] in
            guard state.isOpen, !state.closeNow else { return [] }
            state.closeRequest = CloseRequest(code: code, reason: reason)
            state.closeNow = true
            state.queuedBytes = 0
            defer { state.incoming = [] }
            return state.incoming
        }
        _ = dropped  // released outside the lock
        return shared.withLock { state in
            guard state.isOpen, !state.writeRequested else { return false }
            state.writeRequested = true
            return true
        }
    }

    /// Service thread: the connection is gone; drops everything queued and refuses what comes next.
    func shutDown() {
        let dropped = shared.withLock { state -> [[UInt8]] in
            state.isOpen = false
            state.queuedBytes = 0
            state.writeRequested = false
            defer { state.incoming = [] }
            return state.incoming
        }
        _ = dropped  // released outside the lock
        pending = []
        pendingIndex = 0
        writing = nil
        offset = 0
    }

    /// Service thread: writes the next fragment of the current message to `wsi`, using `buffer`
    /// (`rewind_lws_pre()` bytes of headroom followed by at least `fragmentBytes` bytes).
    func writeNext(to wsi: OpaquePointer, buffer: UnsafeMutablePointer<UInt8>) -> Step {
        if let abort = shared.withLock({ $0.closeNow ? $0.closeRequest : nil }) {
            pending = []
            pendingIndex = 0
            writing = nil
            offset = 0
            return .close(abort)
        }
        if writing == nil {
            if pendingIndex == pending.count {
                pending.removeAll(keepingCapacity: true)
                pendingIndex = 0
                let outcome = shared.withLock { state -> Step? in
                    if !state.incoming.isEmpty {
                        swap(&state.incoming, &pending)
                        return nil
                    }
                    if let close = state.closeRequest { return .close(close) }
                    state.writeRequested = false
                    return .idle
                }
                if let outcome { return outcome }
            }
            writing = pending[pendingIndex]
            pending[pendingIndex] = []
            pendingIndex += 1
            offset = 0
        }
        guard let message = writing else { return .idle }
        let isFirst = offset == 0
        let length = min(fragmentBytes, message.count - offset)
        let payload = buffer + rewind_lws_pre()
        message.withUnsafeBufferPointer { bytes in
            if length > 0, let base = bytes.baseAddress {
                payload.update(from: base + offset, count: length)
            }
        }
        offset += length
        let isFinal = offset == message.count
        let written = rewind_lws_write_text_fragment(wsi, payload, length, isFirst ? 1 : 0, isFinal ? 1 : 0)
        if isFinal {
            writing = nil
            offset = 0
        }
        let hasLocalWork = writing != nil || pendingIndex < pending.count
        let more = shared.withLock { state -> Bool in
            state.queuedBytes -= length + (isFinal ? Self.cost(of: message) - message.count : 0)
            if hasLocalWork || !state.incoming.isEmpty || state.closeRequest != nil { return true }
            // Cleared in the same critical section that saw the queue empty, so a concurrent enqueue
            // either is seen here or asks for a new WRITEABLE callback itself.
            state.writeRequested = false
            return false
        }
        if written < 0 { return .failed }
        return .wrote(more: more)
    }
}
