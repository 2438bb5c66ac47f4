import Foundation
import RewindWire

/// Turns what the outbox hands the pipeline into protocol frames: `action` and `batch` messages carrying each
/// action's JSON Patch against the last state sent, `dropped` ranges with their actions and empty patches where the
/// outbox coalesced, and the `snapshot` that closes such a range.
///
/// Every frame carries the app run's own action numbers (protocol 2) and numbers source locations with one table for
/// the whole run (``sources``, sent in every `hello`), so a frame can be sent again after a reconnect exactly as it
/// was first sent. The state encoding, with its memo and size measurements, is the ``StateEncoder``'s; the measured
/// sizes are handed to the outbox as the charges it applies (``Outbox/updateCosts(stateCharge:actionBytes:reservedBytes:)``).
///
/// When the outbox coalesced, the affected range is announced with `dropped`, its actions are sent with empty
/// patches, and it is closed with a full `snapshot`: of the first later entry that kept its state, or of the state
/// asked for from the app's side (``InspectorPipeline/SnapshotRequest``) once the outbox is empty.
///
/// Threading: a value owned by the pipeline thread.
struct FrameBuilder<State: Sendable, Action: Sendable> {
    /// One encoded frame and the newest action number it covers.
    struct Frame {
        /// The encoded message.
        var bytes: [UInt8]
        /// The newest action number the message covers (an event's `seq`, a range's `to`, a snapshot's `seq`).
        var through: UInt64
    }

    private let outbox: Outbox<State, Action>
    private let coding: RecorderCoding<State, Action>
    private let redactor: Redactor
    private let maxBatchEvents: Int
    private let onSnapshotWanted: @Sendable () -> Void
    /// Encodes and measures the states sent.
    private(set) var encoder: StateEncoder<State, Action>
    /// The last state sent (the one the next patch is made against), and the action it is the state after.
    private(set) var baseline: JSONValue = .null
    private(set) var baselineSeq: UInt64 = 0
    /// The newest action number handled (sent, or announced lost).
    private(set) var latestSeq: UInt64 = 0
    /// True while a coalesced range is open: its states were not captured and a snapshot has not closed it yet.
    private(set) var rangeOpen = false
    /// True from asking the app's side for a closing snapshot until that snapshot is drained.
    private var snapshotRequested = false
    /// The source locations numbered in this app run (protocol 2: one table for the run, sent with every `hello`).
    private(set) var sources = SourceTable()
    /// What was done with the actions handled so far.
    private(set) var counts = InspectorDeliveryCounts()
    /// Turns the entries' monotonic times into wall-clock seconds (read once per drained batch).
    private var wallOffset = 0.0
    /// True once the charges handed to the outbox followed what consecutive states share.
    private var chargesKnowSharing = false
    /// The encoded size of an action, measured every 256 actions.
    private var actionBytes = 64
    private var actionsSinceMeasure = 255

    /// What the pipeline holds for delivery (the resend log and the transport's queue), charged to the outbox's
    /// budget with the encoder's trees.
    private let deliveryReserveBytes: Int

    /// A builder for `outbox`'s entries; `onSnapshotWanted` asks the app's side for the state that closes a range;
    /// `deliveryReserveBytes` is what the pipeline holds for delivery.
    init(outbox: Outbox<State, Action>, coding: RecorderCoding<State, Action>, redactor: Redactor,
         configuration: InspectorConfiguration, stateType: String, deliveryReserveBytes: Int,
         onSnapshotWanted: @escaping @Sendable () -> Void) {
        self.outbox = outbox
        self.deliveryReserveBytes = deliveryReserveBytes
        self.coding = coding
        self.redactor = redactor
        maxBatchEvents = max(1, configuration.maxBatchEvents)
        self.onSnapshotWanted = onSnapshotWanted
        encoder = StateEncoder(coding: coding, redactor: redactor, configuration: configuration, stateType: stateType)
    }

    /// Encodes the state the recorder started from: the first baseline.
    mutating func start(with initial: State, now: Double) {
        baseline = encoder.prepare(initial, now: now)
        updateOutboxCosts()
    }

    // MARK: - Entries to frames

    /// How many entries ``frame(_:now:emit:checkpoint:)`` handles between two calls of its `checkpoint`.
    static var checkpointInterval: Int { 32 }

    /// Turns one drained chunk into frames, handed to `emit` in order. A coalesced range (entries without a state, or
    /// lost actions) may span several chunks: each portion is announced with `dropped` before its events, and the range
    /// is closed with a `snapshot` once a state is known again.
    ///
    /// `checkpoint` is called every ``checkpointInterval`` entries, so that the pipeline keeps watching the process's
    /// memory while it works through a long chunk.
    mutating func frame(_ drained: Outbox<State, Action>.Drained, now: Double, emit: (Frame) -> Void,
                        checkpoint: () -> Void = {}) {
        wallOffset = DispatchClock.wallOffsetSeconds()
        var pending: [ActionEvent] = []
        var portionFrom: UInt64?
        var portion: [ActionEvent] = []
        var portionLost: UInt64 = 0
        var lastSeq: UInt64?
        var encodedAny = false

        latestSeq = max(latestSeq, drained.latestSeq)
        for (index, entry) in drained.entries.enumerated() {
            if index % Self.checkpointInterval == Self.checkpointInterval - 1 { checkpoint() }
            latestSeq = max(latestSeq, entry.seq)
            let isClosingSnapshot = entry.action == nil && entry.reason == Outbox<State, Action>.closingReason
            if isClosingSnapshot { snapshotRequested = false }
            if !rangeOpen && (entry.lostBefore > 0 || entry.state == nil) {
                flush(&pending, emit: emit)
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
                    closeRange(from: portionFrom, to: entry.seq, lost: portionLost, events: &portion, state: state,
                               reason: entry.reason ?? Outbox<State, Action>.closingReason, now: now, emit: emit)
                    portionFrom = nil
                    portionLost = 0
                    lastSeq = nil
                }
                continue
            }
            guard let state = entry.state else { continue }
            // An action's state follows the last one sent; a snapshot's (a jump's, a resync's) need not.
            let encoded = encoder.encodeForSending(state, followsLastSent: entry.action != nil)
            if let action = entry.action {
                let patch = JSONPatch.diff(from: baseline, to: encoded)
                pending.append(event(for: entry, action: action, patch: patch))
                counts.sentWithState += 1
                if pending.count >= maxBatchEvents { flush(&pending, emit: emit) }
            } else {
                flush(&pending, emit: emit)
                send(.snapshot(Snapshot(seq: entry.seq, state: encoded, reason: entry.reason)), through: entry.seq,
                     emit: emit)
            }
            baseline = encoded
            baselineSeq = entry.seq
            _ = encoder.measureOccasionally(encoded, now: now)
            encodedAny = true
        }
        // The charges follow what these states measured (the memo's changed storage, the state's size).
        if encodedAny { updateOutboxCosts() }
        flush(&pending, emit: emit)
        if drained.lostAfter > 0 {
            // Actions lost after the last entry: they belong to the range too.
            rangeOpen = true
            if portionFrom == nil { portionFrom = drained.latestSeq - drained.lostAfter + 1 }
            lastSeq = drained.latestSeq
            portionLost += drained.lostAfter
        }
        if rangeOpen, let from = portionFrom, let to = lastSeq {
            // Announce this portion now, so nothing waits in memory; the range goes on until a state closes it.
            sendDropped(from: from, to: to, lost: portionLost, emit: emit)
            counts.sentWithoutState += UInt64(portion.count)
            flush(&portion, emit: emit)
        }
        if rangeOpen && drained.isFinal && !snapshotRequested {
            snapshotRequested = true
            onSnapshotWanted()
        }
    }

    private mutating func closeRange(from: UInt64?, to: UInt64, lost: UInt64, events: inout [ActionEvent],
                                     state: State, reason: String, now: Double, emit: (Frame) -> Void) {
        if let from, from <= to {
            sendDropped(from: from, to: to, lost: lost, emit: emit)
        }
        counts.sentWithoutState += UInt64(events.count)
        flush(&events, emit: emit)
        // It follows the last state sent by the whole range's changes: not what one held state costs.
        let encoded = encoder.encodeForSending(state, followsLastSent: false)
        let frameBytes = send(.snapshot(Snapshot(seq: to, state: encoded, reason: reason)), through: to, emit: emit)
        baseline = encoded
        baselineSeq = to
        rangeOpen = false
        // The snapshot's frame is the state's encoding and a few dozen bytes more: its size, without encoding again.
        encoder.measured(bytes: frameBytes, now: now)
        updateOutboxCosts()
    }

    /// Announces the portion `from...to` of a coalesced range, `lost` of whose actions the outbox could not keep (they
    /// are never sent).
    private mutating func sendDropped(from: UInt64, to: UInt64, lost: UInt64, emit: (Frame) -> Void) {
        guard from <= to else { return }
        counts.lostInOutbox += lost
        send(.dropped(Dropped(from: from, to: to, actionsLost: lost)), through: to, emit: emit)
    }

    private mutating func event(for entry: Outbox<State, Action>.Entry, action: Action, patch: JSONPatch) -> ActionEvent {
        let payload = (try? coding.encodeAction(action)).map(redactor.redact) ?? .null
        actionsSinceMeasure += 1
        if actionsSinceMeasure >= 256 {
            // What an action may hold outside its queue slot: charged per entry (see ``Outbox``).
            actionsSinceMeasure = 0
            actionBytes = payload.serializedBytes().count
            updateOutboxCosts()
        }
        return ActionEvent(
            seq: entry.seq, time: Double(entry.finishedNanos) / 1e9 + wallOffset,
            action: ActionPayload(type: coding.label(action), payload: payload),
            patch: patch,
            reducerMicros: entry.reducerNanos == ReducerTime.unmeasured ? nil : Double(entry.reducerNanos) / 1000,
            source: entry.source.map { sources.encode("\($0.file):\($0.line)") })
    }

    private func flush(_ events: inout [ActionEvent], emit: (Frame) -> Void) {
        guard !events.isEmpty else { return }
        var start = 0
        while start < events.count {
            let end = min(events.count, start + maxBatchEvents)
            let slice = Array(events[start..<end])
            let message: AppMessage = slice.count == 1 ? .action(slice[0]) : .batch(slice)
            emit(Frame(bytes: WireCodec.encode(message), through: slice[slice.count - 1].seq))
            start = end
        }
        events.removeAll(keepingCapacity: true)
    }

    /// Encodes `message` and hands it to `emit`; returns the frame's size in bytes.
    @discardableResult
    private func send(_ message: AppMessage, through: UInt64, emit: (Frame) -> Void) -> Int {
        let bytes = WireCodec.encode(message)
        emit(Frame(bytes: bytes, through: through))
        return bytes.count
    }

    // MARK: - The memo's verdicts and measurements

    /// Collects the memo checker's verdict; when the memo was found wrong, sends the true state of the last state sent
    /// as a `snapshot` (while no coalesced range is open: the snapshot that closes one is encoded afresh anyway).
    mutating func takeMemoVerdict(now: Double, emit: (Frame) -> Void) {
        let truth = encoder.takeVerdict(now: now)
        updateOutboxCosts()
        if let truth { sendTrueState(truth, emit: emit) }
    }

    /// The app has gone idle: compares the memo's last tree with a whole encoding, and sends the true state when they
    /// differ.
    mutating func checkMemoWhileIdle(now: Double, emit: (Frame) -> Void) {
        if let truth = encoder.checkWhileIdle(now: now) { sendTrueState(truth, emit: emit) }
        updateOutboxCosts()
    }

    private mutating func sendTrueState(_ state: JSONValue, emit: (Frame) -> Void) {
        guard !rangeOpen else { return }
        send(.snapshot(Snapshot(seq: baselineSeq, state: state, reason: StateEncoder<State, Action>.memoCheckReason)),
             through: baselineSeq, emit: emit)
        baseline = state
    }

    /// True while the memo is on and has not yet measured what consecutive states share (see
    /// ``remeasureQueuedState(now:)``).
    var awaitsSharingProbe: Bool { encoder.awaitsSharingProbe }

    /// Measures the newest state the outbox holds when nothing measured the state for a while, and what it shares
    /// with the states before it when nothing measured that yet.
    mutating func remeasureQueuedState(now: Double) {
        let outbox = self.outbox
        let remeasured = encoder.remeasure(newest: { outbox.newestState }, now: now)
        let probed = encoder.probeUnshared(newest: { outbox.newestStates })
        if remeasured || probed { updateOutboxCosts() }
    }

    private mutating func updateOutboxCosts() {
        // The first charge that knows what consecutive states share applies to the states already held too.
        let recharge = encoder.unsharedMeasured && !chargesKnowSharing
        chargesKnowSharing = encoder.unsharedMeasured
        outbox.updateCosts(stateCharge: encoder.stateCharge, actionBytes: actionBytes,
                           reservedBytes: deliveryReserveBytes + encoder.heldTreeBytes, rechargeHeldStates: recharge)
    }
}
