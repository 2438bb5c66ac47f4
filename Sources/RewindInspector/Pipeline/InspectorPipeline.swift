import Foundation
import Rewind
import RewindWire

/// The inspector's own thread: turns outbox entries into protocol frames and keeps the connection alive.
///
/// It owns everything expensive the app's thread must never do: encoding states and actions into `JSONValue`,
/// redaction, diffing each state against the last one sent (RFC 6902), framing events into `action`/`batch`
/// messages and handing them to the transport. It connects and reconnects forever with ``ReconnectBackoff``, and
/// after every connect it sends `hello` with the checkpoint of its ``ResendLog`` (a state at least a second old)
/// and then sends again everything it sent since (frames in flight when a connection resets are lost), so nothing
/// queued in the outbox or in flight is lost across a reconnect; events are numbered on each connection from 1.
///
/// When the outbox coalesced (see ``Outbox``), the pipeline announces the affected range with `dropped`, sends the
/// actions of that range with empty patches, and closes it with a full `snapshot`: of the first later entry that
/// kept its state, or of the state it asks the app's side for (``SnapshotRequest``) once the outbox is empty.
///
/// Threading: ``start()`` and ``stop()`` from any thread; every other member runs on the pipeline thread, except
/// the transport callbacks (``InspectorTransportDelegate``), which only touch the lock-protected link state.
final class InspectorPipeline<State: Sendable, Action: Sendable>: @unchecked Sendable {
    /// Called on the transport's thread with every command the daemon sends (`jump`, `dispatch`, `replay`,
    /// `resync`).
    typealias CommandHandler = @Sendable (DaemonMessage) -> Void
    /// Called on the pipeline thread when a coalesced range is open and the outbox holds nothing to close it: the
    /// app's side should push its current state with ``Outbox/pushSnapshot(afterSeq:finishedNanos:state:reason:)``
    /// and ``Outbox/closingReason`` (on the store's executor; the pipeline waits, and asks again only once it has
    /// it).
    typealias SnapshotRequest = @Sendable () -> Void

    private enum Link {
        case disconnected(retryAt: Double)
        case connecting
        case connected(helloSent: Bool)
    }

    private let outbox: Outbox<State, Action>
    private let transport: any InspectorTransport
    private let url: InspectorURL?
    let identity: AppIdentity
    private let stateType: String
    let configuration: InspectorConfiguration
    private let redactor: Redactor
    private let coding: RecorderCoding<State, Action>
    /// What `hello` advertises (the host's abilities, see ``RecorderHost/capabilities``).
    private let capabilities: [String]
    private let onCommand: CommandHandler
    private let onSnapshotWanted: SnapshotRequest

    // Link state, shared with the transport's callbacks.
    private let linkLock = NSCondition()
    private var link: Link = .disconnected(retryAt: 0)
    private var stopping = false
    private var thread: Thread?
    private var finished = false
    /// A copy of ``rangeOpen`` for other threads: a coalesced range is not delivered until its snapshot is.
    private var awaitingSnapshot = false
    private var everConnected = false
    /// The `seq` of the current connection the daemon last acknowledged (`ack`); nil until it does, and with a
    /// daemon that never does. Guarded by `linkLock`.
    private var ackedSeq: UInt64?
    /// Whether the current connection's daemon acknowledges (its `welcome` says so); nil until the `welcome`.
    /// Guarded by `linkLock`.
    private var daemonAcknowledges: Bool?
    /// The `seq` (of the current connection) of the newest event handed to the transport: with a daemon that
    /// acknowledges, everything is delivered only once it acknowledged this far. Guarded by `linkLock`.
    private var deliveryTarget: UInt64 = 0
    private var failedAttempts = 0
    /// ``counts`` as of the last drained chunk, for other threads.
    private var publishedCounts = InspectorDeliveryCounts()

    // Pipeline-thread state.
    /// The number of the newest action the pipeline has seen (sent, or announced as lost).
    private var latestSeq: UInt64 = 0
    private var initialState: State?
    private var baseline: JSONValue = .null
    private var baselineSeq: UInt64 = 0
    private var connectionBase: UInt64 = 0
    /// The source locations numbered on the current connection (started afresh with each `hello`).
    private var sources = SourceTable()
    private var backoff = ReconnectBackoff()
    /// Takes a connection whose daemon stopped answering for dead (see ``InspectorConfiguration/answerTimeoutSeconds``).
    private lazy var answerWatch = AnswerWatch(timeout: configuration.answerTimeoutSeconds)
    private var measuredStateBytes = 0
    /// When the state's size was last measured, by any of the pipeline's measurements or a memo check (monotonic
    /// seconds).
    private var lastStateMeasure = 0.0
    private var eventsSinceMeasure = 0
    /// The encoded size of an action, measured every 256 actions.
    private var measuredActionBytes = 64
    private var actionsSinceMeasure = 255
    /// What this pipeline did with the actions it drained (read by ``deliveryCounts`` under `linkLock`... copied
    /// there after each drained chunk).
    private var counts = InspectorDeliveryCounts()
    /// True while a coalesced range is open: its states were not captured and a snapshot has not closed it yet.
    private var rangeOpen = false {
        didSet {
            guard rangeOpen != oldValue else { return }
            linkLock.lock()
            awaitingSnapshot = rangeOpen
            linkLock.unlock()
        }
    }
    /// What was sent since a state the daemon can be brought back to, sent again after a reconnect.
    private var resendLog = ResendLog(seq: 0, state: .null, now: 0, byteLimit: 0)
    /// How many `hello`s the pipeline has sent: the number of the current connection, for the resend log.
    private var connectionNumber = 0
    /// The source tables of earlier connections whose frames the resend log still holds.
    private var sourceTables: [Int: SourceTable] = [:]
    /// True from asking the app's side for a closing snapshot until that snapshot is drained.
    private var snapshotRequested = false
    /// How long to wait for entries: shorter while the app dispatches often.
    private var pollSchedule = PollSchedule()
    /// Turns the entries' monotonic times into wall-clock seconds (``DispatchClock/wallOffsetSeconds()``, read once
    /// per drained batch).
    private var wallOffset = 0.0
    /// The incremental encoder of states (see ``StateEncodingMemo``); nil when the state is not `Encodable`, or after
    /// a check found the memo wrong (it stays off for the rest of the session).
    private var memo: StateEncodingMemo?
    /// Encodes a state through the memo (the state's own `Encodable` conformance); set with ``memo``.
    private var memoEncode: ((State, StateEncodingMemo) throws -> JSONValue)?
    /// Memo encodings since the last comparison with a full encoding.
    private var memoEncodingsSinceCheck = 0
    /// The last state encoded through the memo (the one ``baseline`` is the encoding of, sent again in full when a
    /// check finds the memo wrong) and its unredacted tree; `checked` once a check has it (handed to
    /// ``memoChecker``, or compared when the app went idle). Nil while states are not encoded through the memo.
    private var lastMemoEncoding: (state: State, tree: JSONValue, checked: Bool)?
    /// Compares memoised trees with full encodings off the pipeline thread (see ``MemoChecker``).
    private let memoChecker: MemoChecker<State>
    /// How the memo fared so far (pipeline thread; copied to ``publishedMemoStatistics`` with the counts).
    private var memoStatistics = MemoStatistics()
    /// ``memoStatistics`` for other threads. Guarded by `linkLock`.
    private var publishedMemoStatistics = MemoStatistics()
    /// When the pipeline last drained an entry (monotonic seconds): after ``PollSchedule/parkAfter`` of quiet it
    /// parks (see ``Outbox/drain(waitingUpTo:limit:parking:)``).
    private var lastEntrySeen = 0.0
    /// How many times the pipeline thread went round its loop (for the idle wake-up benchmark and tests). Guarded
    /// by `linkLock`.
    private var loopCount: UInt64 = 0

    /// The high-water mark of bytes queued in the transport above which the pipeline stops draining the outbox
    /// (so a slow daemon makes the outbox coalesce instead of memory growing in the transport).
    let transportHighWater: Int

    /// Creates a pipeline for one store. `initialState` is the store's state when the inspector was attached;
    /// `coding` turns states and actions into JSON; `capabilities` are sent in every `hello`.
    init(outbox: Outbox<State, Action>, transport: any InspectorTransport, configuration: InspectorConfiguration,
         identity: AppIdentity, stateType: String, initialState: State, coding: RecorderCoding<State, Action>,
         capabilities: [String], onCommand: @escaping CommandHandler,
         onSnapshotWanted: @escaping SnapshotRequest) {
        self.coding = coding
        self.memoChecker = MemoChecker(encode: { try coding.encodeState($0) })
        self.capabilities = capabilities
        self.outbox = outbox
        self.transport = transport
        self.url = InspectorURL(string: configuration.url)
        self.identity = identity
        self.stateType = stateType
        self.configuration = configuration
        self.redactor = Redactor(paths: configuration.redactedPaths)
        self.initialState = initialState
        self.onCommand = onCommand
        self.onSnapshotWanted = onSnapshotWanted
        self.transportHighWater = max(256 << 10, min(8 << 20, configuration.outboxBudgetBytes / 8))
    }

    /// Starts the pipeline thread. Call once.
    func start() {
        InspectorRegistry.shared.add(self)
        let thread = Thread { [self] in run() }
        thread.name = "rewind.inspector"
        self.thread = thread
        thread.start()
    }

    /// Stops the thread and the transport, and waits for the thread to end. When everything dispatched has been
    /// delivered, the pipeline first says `goodbye` (so the daemon ends the session `clean`) and waits up to a
    /// second for the transport to write it. Idempotent; any thread.
    func stop() {
        linkLock.lock()
        let alreadyStopping = stopping
        stopping = true
        linkLock.broadcast()
        linkLock.unlock()
        guard !alreadyStopping else { return }
        outbox.close()
        memoChecker.stop()
        linkLock.lock()
        while thread != nil && !finished { _ = linkLock.wait(until: Date(timeIntervalSinceNow: 0.1)) }
        // The thread keeps its closure, which holds this pipeline: let it go, or neither would ever be freed.
        thread = nil
        linkLock.unlock()
        transport.disconnect()
    }

    /// True once ``stop()`` was called. Any thread.
    var isStopping: Bool {
        linkLock.lock()
        defer { linkLock.unlock() }
        return stopping
    }

    /// True when the pipeline is connected, has said hello, and every entry dispatched so far has been handed to
    /// a transport that has written it out and, with a daemon that acknowledges (`welcome.ack`), that the daemon
    /// acknowledged as committed to its file (bytes written to a socket can still be lost with the connection).
    /// Any thread.
    /// True as well for a pipeline whose first connection attempt failed and that never connected since: there is
    /// nobody to deliver to. False while a coalesced range waits for the snapshot that closes it (which the store's
    /// executor provides: see ``SnapshotRequest``).
    ///
    /// The outbox and the transport are asked first, and the delivery target after: the pipeline publishes the
    /// target of what it drained before it releases the outbox's charge for it, so an outbox found empty means a
    /// target that covers every entry it held (asked the other way round, the target of the previous batch could be
    /// read, already acknowledged, while the latest batch was written out but not yet counted).
    var hasDeliveredEverything: Bool {
        let handedOn = outbox.isEmpty && transport.queuedBytes == 0
        linkLock.lock()
        let ready: Bool
        if case .connected(helloSent: true) = link { ready = !awaitingSnapshot } else { ready = false }
        let acknowledged: Bool
        switch daemonAcknowledges {
        case true?: acknowledged = deliveryTarget == 0 || (ackedSeq ?? 0) >= deliveryTarget
        case false?: acknowledged = true
        case nil: acknowledged = deliveryTarget == 0
        }
        let nobodyThere = !everConnected && failedAttempts > 0
        linkLock.unlock()
        return nobodyThere || (ready && acknowledged && handedOn && !memoChecker.owesVerdict)
    }

    // MARK: - The loop

    private func run() {
        if let initialState {
            baseline = encodeState(initialState)
            measuredStateBytes = baseline.serializedBytes().count
            lastStateMeasure = monotonicSeconds()
            updateOutboxCosts()
            prepareMemo(initialState)
        }
        resendLog = ResendLog(seq: baselineSeq, state: baseline, now: monotonicSeconds(),
                              byteLimit: 2 * transportHighWater)
        initialState = nil
        lastEntrySeen = monotonicSeconds()
        while true {
            remeasureQueuedState()
            takeMemoVerdict()
            linkLock.lock()
            loopCount &+= 1
            if stopping {
                linkLock.unlock()
                sayGoodbyeIfDelivered()
                reportUndelivered()
                linkLock.lock()
                finished = true
                linkLock.broadcast()
                linkLock.unlock()
                return
            }
            let current = link
            linkLock.unlock()

            switch current {
            case .disconnected(let retryAt):
                let now = monotonicSeconds()
                if now >= retryAt {
                    connect()
                } else {
                    waitForLinkChange(until: retryAt)
                }
            case .connecting:
                waitForLinkChange(until: monotonicSeconds() + 0.05)
            case .connected(let helloSent):
                if !helloSent { sendHello() }
                if daemonStoppedAnswering() {
                    dropSilentConnection()
                    continue
                }
                if transport.queuedBytes > transportHighWater {
                    waitForLinkChange(until: monotonicSeconds() + 0.002)
                    continue
                }
                let now = monotonicSeconds()
                let parking = now - lastEntrySeen >= pollSchedule.parkAfter
                // The app has gone idle: the moment to compare the memo's last tree with a full encoding (once per
                // idle period: the check clears what it checked).
                if parking { checkMemoWhileIdle() }
                let drained = outbox.drain(
                    waitingUpTo: parking ? pollSchedule.parkedWait : pollSchedule.wait(now: DispatchClock.nanoseconds()),
                    limit: configuration.maxBatchEvents, parking: parking)
                for entry in drained.entries where entry.action != nil {
                    pollSchedule.observeDispatch(at: entry.finishedNanos)
                }
                if !drained.entries.isEmpty || drained.lostAfter > 0 { lastEntrySeen = monotonicSeconds() }
                process(drained)
                // Published before the charge is released: once the outbox reads empty, the delivery target
                // already covers what it held (see ``hasDeliveredEverything``).
                publishDeliveryState()
                outbox.release(drained.charge)
                if !rangeOpen {
                    // The checkpoint moves with the daemon's acknowledgments; by time only with a daemon that does
                    // not acknowledge; not at all before the welcome says which (or before the first `ack`).
                    linkLock.lock()
                    let acked = ackedSeq.map { connectionBase &+ $0 }
                    let acknowledges = daemonAcknowledges
                    linkLock.unlock()
                    if acknowledges == false {
                        resendLog.advance(seq: baselineSeq, state: baseline, now: monotonicSeconds())
                    } else if acknowledges == true, let acked {
                        resendLog.advance(seq: baselineSeq, state: baseline, now: monotonicSeconds(), acked: acked)
                    }
                }
            }
        }
    }

    /// True when the connected daemon has owed an answer (the `welcome`, or an `ack` for what it was sent) for
    /// longer than the configured timeout. Pipeline thread, after `hello`.
    private func daemonStoppedAnswering() -> Bool {
        linkLock.lock()
        let acknowledges = daemonAcknowledges, acked = ackedSeq, target = deliveryTarget
        linkLock.unlock()
        let owes = acknowledges == nil || (acknowledges == true && (acked ?? 0) < target)
        return answerWatch.observe(owesAnswer: owes, acknowledged: acked, now: monotonicSeconds())
    }

    /// Closes a connection whose daemon stopped answering and schedules a reconnect, as if the transport had
    /// reported it closed: the next `hello` sends again everything the daemon has not confirmed. Pipeline thread.
    private func dropSilentConnection() {
        linkLock.lock()
        let owed = daemonAcknowledges == nil ? "its welcome" : "an acknowledgment of the events sent"
        linkLock.unlock()
        log("the daemon has not sent \(owed) for \(Int(answerWatch.waited(now: monotonicSeconds()))) s: "
            + "taking the connection for dead, reconnecting (\(transport.queuedBytes) bytes were still queued)")
        transport.disconnect()
        answerWatch.reset()
        scheduleReconnect()
    }

    /// Marks the link disconnected, to be tried again after the backoff's next delay. Any thread.
    private func scheduleReconnect() {
        linkLock.lock()
        let delay = backoff.nextDelay()
        failedAttempts += 1
        link = .disconnected(retryAt: monotonicSeconds() + delay)
        linkLock.broadcast()
        linkLock.unlock()
    }

    /// Publishes what other threads read: the counts, the memo's statistics, and how far the daemon must
    /// acknowledge.
    private func publishDeliveryState() {
        let target = latestSeq > connectionBase ? latestSeq - connectionBase : 0
        linkLock.lock()
        publishedCounts = counts
        publishedMemoStatistics = memoStatistics
        deliveryTarget = target
        linkLock.unlock()
    }

    /// Sends `goodbye` when connected, with nothing queued, no coalesced range open and everything written out;
    /// then waits (up to a second) for the transport to write it. Pipeline thread, while stopping.
    private func sayGoodbyeIfDelivered() {
        linkLock.lock()
        var ready = false
        if case .connected(helloSent: true) = link { ready = !awaitingSnapshot }
        linkLock.unlock()
        guard ready, !rangeOpen else { return }
        // Entries pushed before the stop are still handed on (the outbox is closed, so this does not wait).
        while true {
            let drained = outbox.drain(waitingUpTo: 0, limit: configuration.maxBatchEvents)
            if drained.entries.isEmpty && drained.lostAfter == 0 { break }
            process(drained)
            publishDeliveryState()
            outbox.release(drained.charge)
        }
        publishDeliveryState()
        guard !rangeOpen, outbox.isEmpty else { return }
        send(.goodbye(Goodbye(seq: wireSeq(latestSeq))))
        let deadline = monotonicSeconds() + 1
        while transport.queuedBytes > 0 && monotonicSeconds() < deadline { usleep(1_000) }
    }

    /// Says on standard error, when the pipeline stops with events the daemon has not confirmed, from which action
    /// on the session may miss events (it then ends `interrupted`): an app must not exit believing its actions
    /// recorded. Pipeline thread, while stopping.
    private func reportUndelivered() {
        guard !hasDeliveredEverything else { return }
        linkLock.lock()
        let connected = everConnected
        let confirmed: UInt64? = daemonAcknowledges == true ? connectionBase &+ (ackedSeq ?? 0) : nil
        linkLock.unlock()
        guard connected else { return }
        let since = confirmed.map { "after action \($0) (the last one the daemon confirmed)" } ?? "not yet written out"
        log("'\(identity.name)' stops with events the daemon has not recorded: those \(since) may be missing from "
            + "its session, which ends 'interrupted' (the newest action was \(latestSeq))")
    }

    /// How the encoding memo fared so far: states encoded through it, comparisons with a full encoding, and whether
    /// one found it wrong (it is then off for good). Any thread; as of the last drained chunk.
    struct MemoStatistics: Sendable {
        var encodings = 0
        var checks = 0
        var failedCheck = false
    }

    /// See ``MemoStatistics``. Any thread.
    var memoStatisticsSnapshot: MemoStatistics {
        linkLock.lock()
        defer { linkLock.unlock() }
        return publishedMemoStatistics
    }

    /// What this pipeline did with the actions it drained so far. Any thread.
    var deliveryCounts: InspectorDeliveryCounts {
        linkLock.lock()
        defer { linkLock.unlock() }
        return publishedCounts
    }

    private func connect() {
        guard let url else {
            // A malformed REWIND_URL: say so once, then stay idle (the app runs as if not inspected).
            log("REWIND_URL '\(configuration.url)' is not a ws://host:port address; the inspector stays idle")
            setLink(.disconnected(retryAt: .infinity))
            return
        }
        setLink(.connecting)
        transport.connect(to: url, subprotocol: WireProtocol.appSubprotocol, delegate: self)
    }

    private func sendHello() {
        // After a reconnect, start from the resend log's checkpoint and send what followed it again (frames in
        // flight when the previous connection reset were lost); without one, from the last state sent.
        let checkpoint = resendLog.checkpoint ?? (baselineSeq, baseline)
        answerWatch.reset()
        sourceTables[connectionNumber] = sources
        connectionNumber += 1
        connectionBase = checkpoint.seq
        sources = SourceTable()
        let frames = resendLog.checkpoint == nil ? [] : resendFrames(resendLog.frames)
        let oldest = resendLog.oldestConnection ?? connectionNumber
        sourceTables = sourceTables.filter { $0.key >= oldest }
        let hello = Hello(app: identity, state: checkpoint.state, stateType: stateType, token: configuration.token,
                          capabilities: capabilities, seq: checkpoint.seq,
                          resending: frames.isEmpty ? nil : UInt64(frames.count))
        linkLock.lock()
        if case .connected = link { link = .connected(helloSent: true) }
        linkLock.unlock()
        _ = transport.send(WireCodec.encode(AppMessage.hello(hello)))
        for frame in frames { _ = transport.send(frame) }
        publishDeliveryState()
    }

    /// The frames that send every logged message again after a reconnect's `hello` (whose state is the log's
    /// checkpoint), read back and renumbered for this connection: the daemon records what it did not receive and
    /// ignores what it had.
    private func resendFrames(_ logged: [ResendLog.Frame]) -> [[UInt8]] {
        var frames: [[UInt8]] = []
        for frame in logged {
            guard let message = try? WireCodec.decodeAppMessage(frame.bytes) else { continue }
            var table = sourceTables[frame.connection] ?? SourceTable()
            switch message {
            case .action(let event):
                if let bytes = renumbered([event], from: frame.base, table: &table) { frames.append(bytes) }
            case .batch(let events):
                if let bytes = renumbered(events, from: frame.base, table: &table) { frames.append(bytes) }
            case .dropped(let dropped):
                let from = max(dropped.from &+ frame.base, connectionBase + 1), to = dropped.to &+ frame.base
                guard from <= to else { continue }
                frames.append(WireCodec.encode(AppMessage.dropped(Dropped(
                    from: wireSeq(from), to: wireSeq(to), actionsLost: min(dropped.actionsLost, to - from + 1)))))
            case .snapshot(var snapshot):
                let seq = snapshot.seq &+ frame.base
                guard seq >= connectionBase else { continue }
                snapshot.seq = wireSeq(seq)
                frames.append(WireCodec.encode(AppMessage.snapshot(snapshot)))
            default:
                continue
            }
        }
        return frames
    }

    /// Logged events renumbered for this connection (those at or before its `hello` left out), their sources read
    /// with the table of the connection that sent them and numbered afresh.
    private func renumbered(_ logged: [ActionEvent], from base: UInt64, table: inout SourceTable) -> [UInt8]? {
        var events: [ActionEvent] = []
        events.reserveCapacity(logged.count)
        for var event in logged {
            let seq = event.seq &+ base
            guard seq > connectionBase else { continue }
            event.seq = wireSeq(seq)
            if let source = event.source, let text = try? table.resolve(source, field: "source") {
                event.source = sources.encode(text)
            }
            events.append(event)
        }
        guard !events.isEmpty else { return nil }
        return WireCodec.encode(events.count == 1 ? AppMessage.action(events[0]) : AppMessage.batch(events))
    }

    // MARK: - Turning entries into frames

    /// Turns one drained chunk into frames. A coalesced range (entries without a state, or lost actions) may span
    /// several chunks: each portion is announced with `dropped` before its events, and the range is closed with a
    /// `snapshot` once a state is known again: the first entry that kept its state, or the snapshot asked for when
    /// the outbox ran empty with the range still open.
    private func process(_ drained: Outbox<State, Action>.Drained) {
        wallOffset = DispatchClock.wallOffsetSeconds()
        var pending: [ActionEvent] = []
        var portionFrom: UInt64?
        var portion: [ActionEvent] = []
        var portionLost: UInt64 = 0
        var lastSeq: UInt64?

        latestSeq = max(latestSeq, drained.latestSeq)
        for entry in drained.entries {
            latestSeq = max(latestSeq, entry.seq)
            let isClosingSnapshot = entry.action == nil && entry.reason == Outbox<State, Action>.closingReason
            if isClosingSnapshot { snapshotRequested = false }
            if !rangeOpen && (entry.lostBefore > 0 || entry.state == nil) {
                flush(&pending)
                rangeOpen = true
            }
            // A closing snapshot that arrives after a later entry's state closed the range says nothing new.
            if isClosingSnapshot && !rangeOpen { continue }
            if rangeOpen {
                portionLost += entry.lostBefore
                if entry.action != nil {
                    lastSeq = entry.seq
                    if portionFrom == nil { portionFrom = entry.seq - entry.lostBefore }
                } else if entry.lostBefore > 0 {
                    // A snapshot follows the last action: the lost ones end at its number.
                    lastSeq = entry.seq
                    if portionFrom == nil { portionFrom = entry.seq - entry.lostBefore + 1 }
                }
                if let action = entry.action { portion.append(event(for: entry, action: action, patch: JSONPatch())) }
                if let state = entry.state {
                    closeCoalescedRange(from: portionFrom, to: entry.seq, lost: portionLost, events: &portion,
                                        state: state, reason: entry.reason ?? Outbox<State, Action>.closingReason)
                    portionFrom = nil
                    portionLost = 0
                    lastSeq = nil
                }
                continue
            }
            guard let state = entry.state else { continue }
            let encoded = encodeSentState(state)
            if let action = entry.action {
                let patch = JSONPatch.diff(from: baseline, to: encoded)
                pending.append(event(for: entry, action: action, patch: patch))
                counts.sentWithState += 1
                if pending.count >= configuration.maxBatchEvents { flush(&pending) }
            } else {
                flush(&pending)
                send(.snapshot(Snapshot(seq: wireSeq(entry.seq), state: encoded, reason: entry.reason)))
            }
            baseline = encoded
            baselineSeq = entry.seq
            measureOccasionally(encoded)
        }
        flush(&pending)
        if drained.lostAfter > 0 {
            // Actions lost after the last entry: they belong to the range too.
            rangeOpen = true
            if portionFrom == nil { portionFrom = drained.latestSeq - drained.lostAfter + 1 }
            lastSeq = drained.latestSeq
            portionLost += drained.lostAfter
        }
        if rangeOpen, let from = portionFrom, let to = lastSeq {
            // Announce this portion now, so nothing waits in memory; the range goes on until a state closes it.
            sendDropped(from: from, to: to, lost: portionLost)
            counts.sentWithoutState += UInt64(portion.count)
            flush(&portion)
        }
        if rangeOpen && drained.isFinal && !snapshotRequested {
            snapshotRequested = true
            onSnapshotWanted()
        }
    }

    private func closeCoalescedRange(from: UInt64?, to: UInt64, lost: UInt64, events: inout [ActionEvent],
                                     state: State, reason: String) {
        if let from, from <= to {
            sendDropped(from: from, to: to, lost: lost)
        }
        counts.sentWithoutState += UInt64(events.count)
        flush(&events)
        let encoded = encodeSentState(state)
        send(.snapshot(Snapshot(seq: wireSeq(to), state: encoded, reason: reason)))
        baseline = encoded
        baselineSeq = to
        rangeOpen = false
        measuredStateBytes = encoded.serializedBytes().count
        lastStateMeasure = monotonicSeconds()
        updateOutboxCosts()
    }

    /// Announces the portion `from...to` (app numbers) of a coalesced range, `lost` of whose actions the outbox
    /// could not keep (they are never sent).
    private func sendDropped(from: UInt64, to: UInt64, lost: UInt64) {
        let first = max(from, connectionBase + 1)
        guard first <= to else { return }
        counts.lostInOutbox += lost
        send(.dropped(Dropped(from: wireSeq(first), to: wireSeq(to), actionsLost: lost)))
    }

    private func event(for entry: Outbox<State, Action>.Entry, action: Action, patch: JSONPatch) -> ActionEvent {
        let payload = (try? coding.encodeAction(action)).map(redactor.redact) ?? .null
        actionsSinceMeasure += 1
        if actionsSinceMeasure >= 256 {
            // What an action may hold outside its queue slot: charged per entry (see ``Outbox``).
            actionsSinceMeasure = 0
            measuredActionBytes = payload.serializedBytes().count
            updateOutboxCosts()
        }
        return ActionEvent(
            seq: wireSeq(entry.seq), time: Double(entry.finishedNanos) / 1e9 + wallOffset,
            action: ActionPayload(type: coding.label(action), payload: payload),
            patch: patch, reducerMicros: Double(entry.reducerNanos) / 1000,
            source: entry.source.map { sources.encode("\($0.file):\($0.line)") })
    }

    private func flush(_ events: inout [ActionEvent]) {
        guard !events.isEmpty else { return }
        var start = 0
        while start < events.count {
            let end = min(events.count, start + configuration.maxBatchEvents)
            let slice = Array(events[start..<end])
            let message: AppMessage = slice.count == 1 ? .action(slice[0]) : .batch(slice)
            let bytes = WireCodec.encode(message)
            _ = transport.send(bytes)
            resendLog.log(ResendLog.Frame(bytes: bytes, base: connectionBase, connection: connectionNumber))
            start = end
        }
        events.removeAll(keepingCapacity: true)
    }

    private func send(_ message: AppMessage) {
        let bytes = WireCodec.encode(message)
        _ = transport.send(bytes)
        switch message {
        case .dropped, .snapshot:
            resendLog.log(ResendLog.Frame(bytes: bytes, base: connectionBase, connection: connectionNumber))
        default:
            break
        }
    }

    private func wireSeq(_ appSeq: UInt64) -> UInt64 { appSeq &- connectionBase }

    // MARK: - The encoding memo

    /// The `reason` of the snapshot sent when the memo's tree differed from a full encoding.
    static var memoCheckReason: String { "memo-check" }

    /// True while states are encoded through the memo: it exists (and was never found wrong) and the state is at
    /// least ``InspectorConfiguration/memoMinimumStateBytes`` (as last measured).
    private var memoActive: Bool {
        memo != nil && measuredStateBytes >= configuration.memoMinimumStateBytes
    }

    /// Sets the memo up when the state is `Encodable` and its memoised encoding of the initial state (which also
    /// judges the state's collection types, see ``StateEncodingMemo``) is what the recorder's coding produces.
    private func prepareMemo(_ state: State) {
        guard configuration.memoMinimumStateBytes < Int.max, let encode = Self.memoEncoder() else { return }
        let memo = StateEncodingMemo()
        guard let expected = try? coding.encodeState(state), let tree = try? encode(state, memo),
              tree == expected else {
            log("the incremental encoding of \(stateType) differs from its full encoding; every state is encoded whole")
            return
        }
        self.memo = memo
        memoEncode = encode
        if !memoActive { memo.forget() }
    }

    /// Encodes a state through its own `Encodable` conformance with a memo; nil when `State` is not `Encodable`.
    private static func memoEncoder() -> ((State, StateEncodingMemo) throws -> JSONValue)? {
        guard State.self is any Encodable.Type else { return nil }
        return { state, memo in
            guard let encodable = state as? any Encodable else {
                throw EncodingError.invalidValue(state, EncodingError.Context(codingPath: [], debugDescription: "not Encodable"))
            }
            return try memo.encode(encodable)
        }
    }

    /// Encodes a state to be sent: through the memo while it is active (every ``InspectorConfiguration/memoCheckInterval``-th
    /// tree is handed to ``memoChecker``), in full otherwise.
    private func encodeSentState(_ state: State) -> JSONValue {
        guard let memo, let memoEncode else { return encodeState(state) }
        guard memoActive else {
            if memo.remembersAnything { memo.forget() }
            lastMemoEncoding = nil
            return encodeState(state)
        }
        let tree: JSONValue
        do {
            tree = try memoEncode(state, memo)
        } catch {
            lastMemoEncoding = nil
            return encodeState(state)
        }
        memoEncodingsSinceCheck += 1
        memoStatistics.encodings += 1
        let checked = memoEncodingsSinceCheck >= max(1, configuration.memoCheckInterval)
            && memoChecker.offer(state: state, tree: tree)
        if checked { memoEncodingsSinceCheck = 0 }
        lastMemoEncoding = (state, tree, checked)
        return redactor.redact(tree)
    }

    /// Turns the memo off for the rest of the session after a check found one of its trees wrong, and says why once.
    private func turnMemoOff() {
        memoStatistics.failedCheck = true
        memo?.forget()
        memo = nil
        memoEncode = nil
        lastMemoEncoding = nil
        memoChecker.stop()
        log("the incremental encoding of \(stateType) differed from a full encoding (a type whose encoding reads more "
            + "than its value, or a class instance the first states did not show); sending the full state, and "
            + "encoding every state whole from now on")
    }

    /// Collects the verdict of a check ``memoChecker`` finished: its size measurement replaces the pipeline's own;
    /// a difference turns the memo off and sends the last state sent in full as a `snapshot` (the patches since the
    /// checked state may have been made from wrong trees).
    private func takeMemoVerdict() {
        guard memo != nil, let verdict = memoChecker.takeVerdict() else { return }
        memoStatistics.checks += 1
        defer { publishDeliveryState() }
        if verdict.matched {
            measuredStateBytes = verdict.encodedBytes
            lastStateMeasure = monotonicSeconds()
            updateOutboxCosts()
            return
        }
        let state = lastMemoEncoding?.state
        turnMemoOff()
        if let state { sendTrueState(encodeState(state)) }
    }

    /// When the app has gone quiet, waits for the check under way, then compares the last memoised tree with a full
    /// encoding of its state; on a difference sends the full state as a `snapshot`.
    private func checkMemoWhileIdle() {
        if memo != nil {
            memoChecker.waitUntilIdle()
            takeMemoVerdict()
        }
        guard let last = lastMemoEncoding, !last.checked else { return }
        lastMemoEncoding?.checked = true
        memoEncodingsSinceCheck = 0
        memoStatistics.checks += 1
        guard let full = try? coding.encodeState(last.state), full != last.tree else { return }
        turnMemoOff()
        sendTrueState(redactor.redact(full))
    }

    /// Sends `state`, the true encoding of the last state sent, as a `snapshot` after the memo was found wrong
    /// (while no coalesced range is open: the snapshot that closes one is encoded afresh anyway).
    private func sendTrueState(_ state: JSONValue) {
        guard !rangeOpen else { return }
        send(.snapshot(Snapshot(seq: wireSeq(baselineSeq), state: state, reason: Self.memoCheckReason)))
        baseline = state
    }

    private func encodeState(_ state: State) -> JSONValue {
        do {
            return redactor.redact(try coding.encodeState(state))
        } catch {
            return .object(JSONObject([("$encodingError", .string(String(describing: error)))]))
        }
    }

    /// When nothing measured the state for a quarter of a second, measures the newest state the outbox holds, so
    /// that its charges follow a state that grows while the pipeline is disconnected or sends no states.
    private func remeasureQueuedState() {
        let now = monotonicSeconds()
        guard now - lastStateMeasure >= 0.25 else { return }
        lastStateMeasure = now
        guard let state = outbox.newestState else { return }
        measuredStateBytes = max(measuredStateBytes, encodeState(state).serializedBytes().count)
        updateOutboxCosts()
    }

    /// Re-measures the encoded state size every few hundred events, so the outbox's charges follow the state —
    /// unless the memo is on and its checks (which measure each state they check, off this thread) measured it
    /// within the last second.
    private func measureOccasionally(_ encoded: JSONValue) {
        eventsSinceMeasure += 1
        guard eventsSinceMeasure >= 256 else { return }
        eventsSinceMeasure = 0
        let now = monotonicSeconds()
        guard !memoActive || now - lastStateMeasure >= 1 else { return }
        lastStateMeasure = now
        measuredStateBytes = encoded.serializedBytes().count
        updateOutboxCosts()
    }

    private func updateOutboxCosts() {
        outbox.updateCosts(stateBytes: measuredStateBytes, actionBytes: measuredActionBytes)
    }

    // MARK: - Link state

    private func setLink(_ new: Link) {
        linkLock.lock()
        link = new
        linkLock.broadcast()
        linkLock.unlock()
    }

    private func waitForLinkChange(until deadline: Double) {
        linkLock.lock()
        let seconds = deadline - monotonicSeconds()
        if !stopping && seconds > 0 {
            _ = linkLock.wait(until: Date(timeIntervalSinceNow: min(seconds, 1)))
        }
        linkLock.unlock()
    }

    /// How many times the pipeline thread has gone round its loop so far (each wait for entries that ended, by an
    /// entry, a wake-up or a time-out, is one). Any thread.
    var loopIterations: UInt64 {
        linkLock.lock()
        defer { linkLock.unlock() }
        return loopCount
    }

    /// How many times a push woke this pipeline's parked thread. Any thread.
    var parkedWakeUps: UInt64 { outbox.parkedWakeUps }

    private func log(_ message: String) {
        FileHandle.standardError.write(Data("rewind inspector: \(message)\n".utf8))
    }
}

extension InspectorPipeline: InspectorTransportDelegate {
    func transportDidConnect() {
        linkLock.lock()
        everConnected = true
        ackedSeq = nil
        daemonAcknowledges = nil
        link = .connected(helloSent: false)
        linkLock.broadcast()
        linkLock.unlock()
        outbox.wake()
    }

    func transportDidReceive(_ message: [UInt8]) {
        guard let decoded = try? WireCodec.decodeDaemonMessage(message) else { return }
        switch decoded {
        case .welcome(let welcome):
            linkLock.lock()
            backoff.reset()
            daemonAcknowledges = welcome.acknowledges
            linkLock.unlock()
        case .ack(let ack):
            linkLock.lock()
            ackedSeq = max(ackedSeq ?? 0, ack.seq)
            linkLock.unlock()
        case .error(let error) where error.code.closeCode != nil:
            log("the daemon refused this app: \(error.code.rawValue): \(error.message)")
        default:
            onCommand(decoded)
        }
    }

    func transportDidDisconnect(reason: String) {
        scheduleReconnect()
        outbox.wake()
    }
}

/// Seconds on a monotonic clock (for deadlines; never for timestamps).
func monotonicSeconds() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds) / 1e9
}
