import Foundation
import Rewind
import RewindWire

/// The inspector's own thread: the driver that moves entries from the outbox to the transport, and the owner of the
/// rules it follows.
///
/// Each turn of its loop it collects what the transport reported (connected, a `welcome`, an `ack`, closed) and gives
/// it to the ``DeliveryStateMachine``, does what the machine answers (connect, say `hello` and send again what the
/// daemon may not have, abandon a silent connection), then — while the machine lets it hand frames over and the
/// transport is below its high-water mark — drains the outbox and has the ``FrameBuilder`` turn the entries into
/// frames, each handed to the transport and logged by the machine. Encoding, diffing and redaction happen here, never
/// on the app's thread.
///
/// After ``PollSchedule/parkAfter`` without an entry it parks (see ``Outbox/drain(waitingUpTo:limit:parking:)``):
/// the app's first dispatch after that, or a transport event, wakes it.
///
/// Threading: ``start()``, ``stop()`` and the read-only properties from any thread; everything else runs on the
/// pipeline thread (checked at run time in debug builds). The transport's callbacks (``InspectorTransportDelegate``)
/// only queue what they report and wake the thread; commands for the store go straight to `onCommand`.
final class InspectorPipeline<State: Sendable, Action: Sendable>: @unchecked Sendable {
    /// Called on the transport's thread with every command the daemon sends (`jump`, `dispatch`, `replay`,
    /// `resync`).
    typealias CommandHandler = @Sendable (DaemonMessage) -> Void
    /// Called on the pipeline thread when a coalesced range is open and the outbox holds nothing to close it: the
    /// app's side should push its current state with ``Outbox/pushSnapshot(afterSeq:finishedNanos:state:reason:)``
    /// and ``Outbox/closingReason`` (on the store's executor; the pipeline waits, and asks again only once it has
    /// it).
    typealias SnapshotRequest = @Sendable () -> Void

    /// What the transport reported, queued for the pipeline thread.
    private enum TransportEvent {
        case connected
        case welcome(Welcome)
        case ack(Ack)
        case refused(WireError)
        case disconnected(reason: String)
        case captureRequested(CaptureRequest)
    }

    /// A request for a capture of the recent actions (``captureRecent(note:timeout:)``), answered by the pipeline
    /// thread.
    private final class CaptureRequest: @unchecked Sendable {  // `result` guarded by `condition`
        let note: String
        /// When it was asked (monotonic seconds): it is answered once the outbox is drained, or half a second later.
        let asked: Double
        private let condition = NSCondition()
        private var result: Result<URL, CaptureWriteError>?

        init(note: String, asked: Double) {
            self.note = note
            self.asked = asked
        }

        func answer(_ result: Result<URL, CaptureWriteError>) {
            condition.withLock {
                self.result = result
                condition.broadcast()
            }
        }

        func wait(until deadline: Date) -> Result<URL, CaptureWriteError>? {
            condition.lock()
            defer { condition.unlock() }
            while result == nil && condition.wait(until: deadline) {}
            return result
        }
    }

    /// What other threads read, published by the pipeline thread after each turn.
    private struct Published {
        var verdict = DeliveryStateMachine.Verdict.pending
        var counts = InspectorDeliveryCounts()
        var memo = StateEncoder<State, Action>.MemoStatistics()
    }

    private let outbox: Outbox<State, Action>
    private let transport: any InspectorTransport
    private let url: InspectorURL?
    let identity: AppIdentity
    private let stateType: String
    let configuration: InspectorConfiguration
    /// What `hello` advertises (the host's abilities, see ``RecorderHost/capabilities``).
    private let capabilities: [String]
    private let onCommand: CommandHandler

    // Shared with other threads, guarded by `lock`.
    private let lock = NSCondition()
    private var stopping = false
    private var thread: Thread?
    private var finished = false
    /// True once the pipeline thread measured the initial state.
    private var started = false
    private var inbox: [TransportEvent] = []
    private var published = Published()
    /// How many times the pipeline thread went round its loop (for the idle wake-up benchmark and tests).
    private var loopCount: UInt64 = 0

    // The pipeline thread's own.
    private var delivery: DeliveryStateMachine
    private var frames: FrameBuilder<State, Action>
    private var initialState: State?
    /// How long to wait for entries: shorter while the app dispatches often.
    private var pollSchedule = PollSchedule()
    /// When the pipeline last drained an entry (monotonic seconds): after ``PollSchedule/parkAfter`` of quiet it
    /// parks.
    private var lastEntrySeen = 0.0
    /// The pipeline thread, for the run-time checks of the threading contract.
    private let owner = ThreadOwner()
    /// Refuses states while the process's resident memory grew past the budget (the bound's second line).
    private var memoryWatch: ResidentMemoryWatch
    /// The daemon's last refusal (`code: message`), said once; nil once a connection is welcomed.
    private var lastRefusal: String?
    /// What is recorded on the device when no daemon records it (nil when the configuration asks for nothing).
    private let capture: LocalCapture?
    /// Capture requests waiting for the outbox to be drained.
    private var captureRequests: [CaptureRequest] = []

    /// The high-water mark of bytes queued in the transport above which the pipeline stops draining the outbox
    /// (so a slow daemon makes the outbox coalesce instead of memory growing in the transport). It is also the
    /// window: how many bytes may be sent beyond the daemon's last acknowledgment.
    let transportHighWater: Int

    /// The transport's high-water mark (and the window) for a memory budget of `budgetBytes`: a sixteenth of it,
    /// between 256 KiB and 4 MiB.
    static func transportHighWater(budgetBytes: Int) -> Int {
        max(256 << 10, min(4 << 20, budgetBytes / 16))
    }

    /// What delivery holds at most, charged to the budget: the resend log (twice the window) and the frames queued in
    /// the transport (up to the high-water mark, copied there).
    static func deliveryReserveBytes(highWater: Int) -> Int { 3 * highWater }

    /// Creates a pipeline for one store. `initialState` is the store's state when the inspector was attached;
    /// `coding` turns states and actions into JSON; `capabilities` are sent in every `hello`.
    init(outbox: Outbox<State, Action>, transport: any InspectorTransport, configuration: InspectorConfiguration,
         identity: AppIdentity, stateType: String, initialState: State, coding: RecorderCoding<State, Action>,
         capabilities: [String], onCommand: @escaping CommandHandler,
         onSnapshotWanted: @escaping SnapshotRequest) {
        self.capabilities = capabilities
        self.outbox = outbox
        self.transport = transport
        self.url = InspectorURL(string: configuration.url)
        self.identity = identity
        self.stateType = stateType
        self.configuration = configuration
        self.initialState = initialState
        self.onCommand = onCommand
        let highWater = Self.transportHighWater(budgetBytes: configuration.outboxBudgetBytes)
        self.transportHighWater = highWater
        capture = LocalCapture(configuration: configuration, identity: identity, stateType: stateType)
        frames = FrameBuilder(outbox: outbox, coding: coding, redactor: Redactor(paths: configuration.redactedPaths),
                              configuration: configuration, stateType: stateType,
                              deliveryReserveBytes: Self.deliveryReserveBytes(highWater: highWater),
                              onSnapshotWanted: onSnapshotWanted)
        delivery = DeliveryStateMachine(seq: 0, state: .null, now: 0, answerTimeout: configuration.answerTimeoutSeconds,
                                        window: highWater, logLimit: 2 * highWater)
        // Half the budget: states are the part of the budget a lagging charge can let grow, and the growth the watch
        // sees includes the actions queued beside them (charged from the other half).
        memoryWatch = ResidentMemoryWatch(limitBytes: configuration.outboxBudgetBytes / 2,
                                          read: ResidentMemory.currentBytesUnlessSanitized)
    }

    /// Starts the pipeline thread, and waits up to `measuringFor` seconds for it to have encoded and measured the
    /// initial state, so that the outbox charges the first states what they cost (about 60 ms for a 1 MB state, once,
    /// when the inspector is attached; should it take longer, the states pushed meanwhile are charged a conservative
    /// estimate instead). Call once.
    func start(measuringFor wait: Double = 0.5) {
        InspectorRegistry.shared.add(self)
        let thread = Thread { [self] in run() }
        thread.name = "rewind.inspector"
        self.thread = thread
        thread.start()
        let deadline = Date(timeIntervalSinceNow: wait)
        lock.lock()
        while !started && !stopping && lock.wait(until: deadline) {}
        lock.unlock()
    }

    /// Stops the thread and the transport, and waits for the thread to end. When everything dispatched has been
    /// handed on, the pipeline first says `goodbye` (so the daemon ends the session `clean`) and waits up to a
    /// second for the transport to write it. Idempotent; any thread.
    func stop() {
        lock.lock()
        let alreadyStopping = stopping
        stopping = true
        lock.broadcast()
        lock.unlock()
        guard !alreadyStopping else { return }
        outbox.close()
        frames.encoder.memoChecker.stop()
        lock.lock()
        while thread != nil && !finished { _ = lock.wait(until: Date(timeIntervalSinceNow: 0.1)) }
        // The thread keeps its closure, which holds this pipeline: let it go, or neither would ever be freed.
        thread = nil
        lock.unlock()
        transport.disconnect()
    }

    /// True once ``stop()`` was called. Any thread.
    var isStopping: Bool {
        lock.withLock { stopping }
    }

    /// Whether everything dispatched so far is delivered (see ``DeliveryStateMachine/verdict(rangeOpen:lostInOutbox:)``):
    /// committed to the daemon's record with nothing lost (`delivered`), still on its way (`pending`), or accounted
    /// for with actions lost (`incomplete`). Any thread.
    ///
    /// The outbox and the transport are asked first, and the published verdict after: the pipeline publishes the
    /// verdict for what it drained before it releases the outbox's charge for it, so an outbox found empty means a
    /// verdict that covers every entry it held.
    var deliveryVerdict: DeliveryStateMachine.Verdict {
        let handedOn = outbox.isEmpty
        let written = transport.queuedBytes == 0
        let verdict = lock.withLock { published.verdict }
        guard verdict != .pending else { return .pending }
        guard handedOn, written, !frames.encoder.memoChecker.owesVerdict else { return .pending }
        return verdict
    }

    /// True when everything dispatched so far is committed to the daemon's record and nothing was lost; true as well
    /// for a pipeline whose first connection attempt failed and that never connected since (nobody to deliver to).
    /// Any thread.
    var hasDeliveredEverything: Bool { deliveryVerdict == .delivered }

    // MARK: - The loop

    private func run() {
        owner.claim()
        let now = monotonicSeconds()
        if let initialState {
            frames.start(with: initialState, now: now)
            capture?.start(seq: 0, state: frames.baseline)
        }
        initialState = nil
        lock.withLock {
            started = true
            lock.broadcast()
        }
        delivery = DeliveryStateMachine(seq: 0, state: frames.baseline, now: now,
                                        answerTimeout: configuration.answerTimeoutSeconds,
                                        window: transportHighWater, logLimit: 2 * transportHighWater)
        lastEntrySeen = now
        while true {
            watchMemory()
            frames.remeasureQueuedState(now: monotonicSeconds())
            frames.takeMemoVerdict(now: monotonicSeconds(), emit: handOver)
            let (events, isStopping) = lock.withLock { () -> ([TransportEvent], Bool) in
                loopCount &+= 1
                defer { inbox.removeAll(keepingCapacity: true) }
                return (inbox, stopping)
            }
            for event in events { take(event) }
            if isStopping {
                captureRemainderOffline()
                answerCaptureRequests(force: true)
                sayGoodbyeIfHandedOn()
                reportUndelivered()
                delivery.stop()
                publish()
                lock.withLock {
                    finished = true
                    lock.broadcast()
                }
                return
            }
            switch delivery.tick(now: monotonicSeconds()) {
            case .connect?:
                connect()
            case .abandon(let reason)?:
                log("\(reason): taking the connection for dead, reconnecting (\(transport.queuedBytes) bytes were "
                    + "still queued)")
                transport.disconnect()
            case nil:
                break
            }
            publish()
            // Until the memo measured what consecutive states share, the states queued are charged their whole size
            // and a dozen of a large state fill the states' share: once states are queued, look every millisecond
            // so that the probe runs at once (while connecting too), not after the connection came up. An idle app
            // queues nothing, so this never wakes an idle pipeline.
            let probeBy = frames.awaitsSharingProbe && !outbox.isEmpty ? monotonicSeconds() + 0.001 : .infinity
            answerCaptureRequests(force: false)
            let wakeBy: Double
            switch delivery.link {
            case .waiting(let retryAt):
                wakeBy = min(retryAt, probeBy)
            case .connecting:
                wakeBy = min(monotonicSeconds() + 0.05, probeBy)
            case .stopped:
                wakeBy = monotonicSeconds() + 1
            case .greeting, .streaming:
                if capture?.offlinePartURL != nil {
                    capture?.endOfflinePart(goodbyeSeq: frames.rangeOpen ? nil : frames.latestSeq)
                }
                guard delivery.mayHandOver, transport.queuedBytes <= transportHighWater else {
                    waitForTransport(until: monotonicSeconds() + 0.002)
                    continue
                }
                drainOutbox(offline: false)
                continue
            }
            // No daemon: what is captured on the device takes the entries (the outbox would coalesce and lose them
            // otherwise); without a capture they wait in the outbox for a daemon.
            if capture != nil {
                drainOutbox(offline: true, until: wakeBy)
            } else {
                waitForTransport(until: wakeBy)
            }
        }
    }

    /// Drains what the outbox holds (waiting on the poll schedule, or parked after a quiet spell, never past `until`),
    /// turns it into frames, publishes, and lets the outbox's charge go. `offline`: no daemon is connected, and the
    /// frames go to the local capture (``LocalCapture``). Returns false when there was nothing to drain.
    @discardableResult
    private func drainOutbox(offline: Bool, until deadline: Double = .infinity) -> Bool {
        owner.check()
        let now = monotonicSeconds()
        let parking = now - lastEntrySeen >= pollSchedule.parkAfter
        // The app has gone idle: the moment to compare the memo's last tree with a full encoding (once per idle
        // period: the check clears what it checked).
        if parking { frames.checkMemoWhileIdle(now: now, emit: handOver) }
        let wait = parking ? pollSchedule.parkedWait : pollSchedule.wait(now: DispatchClock.nanoseconds())
        let drained = outbox.drain(waitingUpTo: max(0, min(wait, deadline - now)),
                                   limit: configuration.maxBatchEvents, parking: parking)
        if offline && (!drained.entries.isEmpty || drained.lostAfter > 0) {
            capture?.willCaptureOffline(seq: frames.baselineSeq, state: frames.baseline, sources: frames.sources.texts,
                                        firstDispatchNanos: drained.entries.first?.finishedNanos,
                                        daemonURL: configuration.url)
        }
        for entry in drained.entries where entry.action != nil {
            pollSchedule.observeDispatch(at: entry.finishedNanos)
        }
        if !drained.entries.isEmpty || drained.lostAfter > 0 { lastEntrySeen = monotonicSeconds() }
        watchMemory()
        frames.frame(drained, now: monotonicSeconds(), emit: handOver, checkpoint: watchMemory)
        delivery.handed(through: frames.latestSeq)
        if !frames.rangeOpen {
            delivery.stateSent(seq: frames.baselineSeq, state: frames.baseline, now: monotonicSeconds())
        }
        capture?.turnEnded(rangeOpen: frames.rangeOpen, seq: frames.baselineSeq, state: frames.baseline,
                           latestSeq: frames.latestSeq)
        // Published before the charge is released: once the outbox reads empty, the verdict already covers what
        // it held (see ``deliveryVerdict``).
        publish()
        outbox.release(drained.charge)
        return !drained.entries.isEmpty || drained.lostAfter > 0
    }

    /// Reads the process's resident memory (at most once a millisecond) and has the outbox refuse states while it grew
    /// by more than half the budget since the pipeline last caught up: the outbox held at most a sixty-fourth of the
    /// budget (see ``ResidentMemoryWatch``).
    private func watchMemory() {
        let caughtUp = outbox.holds(atMost: max(256 << 10, configuration.outboxBudgetBytes / 64))
        if let refuse = memoryWatch.check(now: monotonicSeconds(), caughtUp: caughtUp) {
            outbox.refuseStates(refuse)
        }
    }

    /// Hands one frame to the transport; the machine logs it for a resend and counts it against the window. With no
    /// daemon connected it goes to the local capture instead (and is logged for a daemon reached later). The recent
    /// actions kept for a triggered capture see every frame.
    private func handOver(_ frame: FrameBuilder<State, Action>.Frame) {
        owner.check()
        switch delivery.link {
        case .greeting, .streaming:
            _ = transport.send(frame.bytes)
            delivery.sent(frame.bytes, through: frame.through)
            capture?.record(frame.bytes, through: frame.through, offline: false)
        case .waiting, .connecting, .stopped:
            if let capture {
                capture.record(frame.bytes, through: frame.through, offline: true)
                delivery.keptOffline(frame.bytes, through: frame.through)
            } else {
                _ = transport.send(frame.bytes)
                delivery.sent(frame.bytes, through: frame.through)
            }
        }
    }

    /// While stopping with no daemon connected: frames what the outbox still holds into the local capture and ends the
    /// offline part (with `goodbye` when no coalesced range is left open). Pipeline thread.
    private func captureRemainderOffline() {
        owner.check()
        guard let capture else { return }
        switch delivery.link {
        case .greeting, .streaming:
            return
        case .waiting, .connecting, .stopped:
            break
        }
        // The outbox is closed: each turn takes what is left without waiting.
        while drainOutbox(offline: true, until: monotonicSeconds()) {}
        capture.endOfflinePart(goodbyeSeq: frames.rangeOpen ? nil : frames.latestSeq)
    }

    /// Answers the capture requests whose actions are all framed (the outbox is empty), or that waited half a second
    /// (`force`: all of them, while stopping). Pipeline thread.
    private func answerCaptureRequests(force: Bool) {
        owner.check()
        guard !captureRequests.isEmpty else { return }
        let drained = outbox.isEmpty
        let now = monotonicSeconds()
        captureRequests.removeAll { request in
            guard force || drained || now - request.asked >= 0.5 else { return false }
            guard let capture else {
                request.answer(.failure(CaptureWriteError.noneKept))
                return true
            }
            request.answer(capture.writeRecent(note: request.note, sources: frames.sources.texts))
            return true
        }
    }

    /// Gives one transport event to the delivery machine (and says `hello` on a new connection).
    private func take(_ event: TransportEvent) {
        owner.check()
        let now = monotonicSeconds()
        switch event {
        case .connected:
            sendHello(now: now)
        case .welcome(let welcome):
            delivery.welcomed(welcome, now: now)
            lastRefusal = nil
        case .ack(let ack):
            delivery.acknowledged(ack, now: now)
        case .refused(let error):
            delivery.refused()
            // Said once per reason: the inspector keeps trying (the daemon may be restarted with another token),
            // and the same sentence on every attempt would bury the app's own output.
            let reason = "\(error.code.rawValue): \(error.message)"
            if reason != lastRefusal {
                log("the daemon refused this app: \(reason) (trying again every few seconds without saying so)")
                lastRefusal = reason
            }
        case .disconnected:
            delivery.disconnected(now: now)
        case .captureRequested(let request):
            captureRequests.append(request)
        }
    }

    private func connect() {
        guard let url else {
            // A malformed REWIND_URL: say so once, then stay idle (the app runs as if not inspected).
            log("REWIND_URL '\(configuration.url)' is not a ws://host:port address; the inspector stays idle")
            delivery.stop()
            return
        }
        transport.connect(to: url, subprotocol: WireProtocol.appSubprotocol, delegate: self)
    }

    /// Says `hello` on a new connection with the machine's plan: the resend log's checkpoint and every frame after it,
    /// sent again as first sent (or the last state sent, when the log gave up).
    private func sendHello(now: Double) {
        owner.check()
        guard let plan = delivery.connected(now: now, baselineSeq: frames.baselineSeq, baseline: frames.baseline) else {
            return
        }
        let hello = Hello(app: identity, state: plan.state, stateType: stateType, token: configuration.token,
                          capabilities: capabilities, seq: plan.seq,
                          resending: plan.resend.isEmpty ? nil : UInt64(plan.resend.count),
                          sources: frames.sources.texts,
                          dispatched: max(outbox.latestDispatchedSeq, frames.latestSeq, plan.seq))
        _ = transport.send(WireCodec.encode(AppMessage.hello(hello)))
        for frame in plan.resend { _ = transport.send(frame) }
    }

    /// Publishes what other threads read: the verdict, the counts, the memo's statistics.
    private func publish() {
        owner.check()
        var counts = frames.counts
        counts.lostInRecord = delivery.lostInRecord
        var verdict = delivery.verdict(rangeOpen: frames.rangeOpen, lostInOutbox: counts.lostInOutbox)
        // Capturing offline, what is dispatched is delivered once it is in the capture files: a coalesced range is
        // still waiting for the state that closes it (an exiting app waits for it, up to its exit flush time).
        if capture?.capturesOffline == true && frames.rangeOpen {
            switch delivery.link {
            case .waiting, .connecting, .stopped: verdict = .pending
            case .greeting, .streaming: break
            }
        }
        let memo = frames.encoder.statistics
        lock.withLock {
            published.verdict = verdict
            published.counts = counts
            published.memo = memo
        }
    }

    /// Waits for a transport event until `deadline` (at most a second).
    private func waitForTransport(until deadline: Double) {
        lock.lock()
        let seconds = deadline - monotonicSeconds()
        if !stopping && inbox.isEmpty && seconds > 0 {
            _ = lock.wait(until: Date(timeIntervalSinceNow: min(seconds, 1)))
        }
        lock.unlock()
    }

    /// Sends `goodbye` when welcomed, with nothing queued and no coalesced range open; then waits (up to a second) for
    /// the transport to write it. Pipeline thread, while stopping.
    private func sayGoodbyeIfHandedOn() {
        owner.check()
        guard delivery.maySayGoodbye(rangeOpen: frames.rangeOpen) else { return }
        // Entries pushed before the stop are still handed on (the outbox is closed, so this does not wait).
        while true {
            let drained = outbox.drain(waitingUpTo: 0, limit: configuration.maxBatchEvents)
            if drained.entries.isEmpty && drained.lostAfter == 0 { break }
            frames.frame(drained, now: monotonicSeconds(), emit: handOver)
            delivery.handed(through: frames.latestSeq)
            publish()
            outbox.release(drained.charge)
        }
        guard delivery.maySayGoodbye(rangeOpen: frames.rangeOpen), outbox.isEmpty else { return }
        _ = transport.send(WireCodec.encode(AppMessage.goodbye(Goodbye(seq: frames.latestSeq))))
        let deadline = monotonicSeconds() + 1
        while transport.queuedBytes > 0 && monotonicSeconds() < deadline { usleep(1_000) }
    }

    /// Says on standard error, when the pipeline stops with events the daemon has not confirmed, from which action
    /// on the session may miss events (it then ends `interrupted`): an app must not exit believing its actions
    /// recorded. Pipeline thread, while stopping.
    private func reportUndelivered() {
        let verdict = delivery.verdict(rangeOpen: frames.rangeOpen, lostInOutbox: frames.counts.lostInOutbox)
        guard delivery.everConnected else { return }
        if !delivery.everWelcomed, let lastRefusal {
            log("'\(identity.name)' stops with nothing recorded: the daemon refused it (\(lastRefusal))")
            return
        }
        switch verdict {
        case .delivered where outbox.isEmpty:
            return
        case .incomplete:
            log("'\(identity.name)' stops with \(max(frames.counts.lostInOutbox, delivery.lostInRecord)) action(s) "
                + "counted lost in its session (see its 'lost' rows)")
        default:
            let since = delivery.acknowledges == true
                ? "after action \(delivery.acknowledgedThrough) (the last one the daemon confirmed)"
                : "not yet written out"
            log("'\(identity.name)' stops with events the daemon has not recorded: those \(since) may be missing "
                + "from its session, which ends 'interrupted' (the newest action was \(frames.latestSeq))")
        }
    }

    // MARK: - Read by other threads

    /// Writes the recent actions this pipeline kept (``InspectorConfiguration/captureRecentActions``) to a capture
    /// file, once everything dispatched before the call is framed (or half a second passed), and returns its location;
    /// nil when `timeout` seconds pass first. Any thread but the pipeline's; blocks the caller.
    func captureRecent(note: String, timeout: Double) -> Result<URL, CaptureWriteError>? {
        let request = CaptureRequest(note: note, asked: monotonicSeconds())
        post(.captureRequested(request))
        return request.wait(until: Date(timeIntervalSinceNow: timeout))
    }

    /// How the encoding memo fared so far (see ``StateEncoder/MemoStatistics``); as of the last drained chunk.
    typealias MemoStatistics = StateEncoder<State, Action>.MemoStatistics

    /// See ``MemoStatistics``. Any thread.
    var memoStatisticsSnapshot: MemoStatistics {
        lock.withLock { published.memo }
    }

    /// What this pipeline did with the actions it drained so far. Any thread.
    var deliveryCounts: InspectorDeliveryCounts {
        lock.withLock { published.counts }
    }

    /// The `reason` of the snapshot sent when the memo's tree differed from a full encoding.
    static var memoCheckReason: String { StateEncoder<State, Action>.memoCheckReason }

    /// How many times the pipeline thread has gone round its loop so far (each wait for entries that ended, by an
    /// entry, a wake-up or a time-out, is one). Any thread.
    var loopIterations: UInt64 {
        lock.withLock { loopCount }
    }

    /// How many times a push woke this pipeline's parked thread. Any thread.
    var parkedWakeUps: UInt64 { outbox.parkedWakeUps }

    private func log(_ message: String) {
        FileHandle.standardError.write(Data("rewind inspector: \(message)\n".utf8))
    }

    /// Queues a transport event for the pipeline thread and wakes it, wherever it waits.
    private func post(_ event: TransportEvent) {
        lock.withLock {
            inbox.append(event)
            lock.broadcast()
        }
        outbox.wake()
    }
}

extension InspectorPipeline: InspectorTransportDelegate {
    func transportDidConnect() {
        post(.connected)
    }

    func transportDidReceive(_ message: [UInt8]) {
        guard let decoded = try? WireCodec.decodeDaemonMessage(message) else { return }
        switch decoded {
        case .welcome(let welcome):
            post(.welcome(welcome))
        case .ack(let ack):
            post(.ack(ack))
        case .error(let error) where error.code.closeCode != nil:
            post(.refused(error))
        default:
            onCommand(decoded)
        }
    }

    func transportDidDisconnect(reason: String) {
        post(.disconnected(reason: reason))
    }
}

/// Seconds on a monotonic clock (for deadlines; never for timestamps).
func monotonicSeconds() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds) / 1e9
}
