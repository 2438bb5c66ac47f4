import Dispatch
import Rewind

/// The bounded hand-off between the app's thread and the inspector's pipeline thread.
///
/// The app's thread calls ``push(seq:finishedNanos:action:source:state:reducerNanos:)`` once per dispatched action.
/// That call only copies values into an array under a lock held for a few instructions: no encoding, no allocation
/// beyond the array's amortised growth, and no system call — it does not wake the pipeline thread, which instead polls
/// the outbox on a ``PollSchedule``: every 4 ms while the app dispatches slowly, more often while it dispatches
/// quickly, so that a state is encoded and released before the app's next change (which would otherwise copy the
/// arrays on its path). Once the app has been idle for a while the pipeline *parks* instead of polling; the first
/// push after that wakes it (one semaphore signal per idle period, the only system call a push ever makes). The lock is a pthread mutex stored in the same allocation as the queue
/// it guards (``MutexGuardedBuffer``), so an uncontended push is a compare-and-exchange next to the lines it writes
/// anyway: when the app dispatches after a pause, on cold caches, every further line (a separate lock object,
/// Foundation's code) costs it a miss.
///
/// The outbox holds what the app dispatched until the pipeline takes it, within one byte budget, the inspector's
/// memory budget (``InspectorConfiguration/outboxBudgetBytes``), shared with what the pipeline itself holds
/// (``updateCosts(stateCharge:actionBytes:reservedBytes:)``'s `reservedBytes`: the resend log, the frames queued in
/// the transport, the encoded trees of the last state). What is left of it, the *queue budget* (never less than a
/// quarter of the budget), is for queued entries. Under pressure the outbox gives up states long before actions:
/// actions are the record, while an intermediate state can be marked unknown and the next one taken whole.
///
/// - **States** may take up to a quarter of the queue budget (a burst of actions needs the rest more). Each kept state is charged what holding it costs the process:
///   its slot plus what it does not share with the states after it, as the pipeline last measured it (the encoding
///   memo sees which collections a change copied; without the memo, the state's whole encoded size). When a
///   measurement raises the charge, the states already held are charged again at the new figure (so a state that
///   grew stops the outbox keeping more until enough of them are gone). When the next state does not fit, the entry
///   keeps its action but not its state (it is *stateless*): the outbox *coalesces*. The pipeline also watches the
///   process's resident memory: while it has grown by more than half the budget since the pipeline last caught up,
///   states are refused whatever the charges say (``refuseStates(_:)``), so a wrong charge cannot put the app at risk.
/// - **Actions** take the rest of the queue budget. Each is charged its slot in the queue
///   (`MemoryLayout<Record>.stride`) plus what its action may hold outside it (its encoding's size beyond the inline
///   size, as last measured) and the allocator's overhead. Only when even the action does not fit is it dropped and
///   counted as *lost* — the last resort, announced with `dropped` (`actionsLost`) so the record says so.
///
/// States are kept in their own queue, beside the entries and in the same order, so a stateless entry costs only its
/// record, whatever the size of the app's `State`.
///
/// A coalescing outbox does not keep the newest state on the side: holding the state the app is about to change
/// would make the app's next change copy the arrays on its path (copy-on-write) on every dispatch, which is what
/// made a fast app pay microseconds per action with a large state. Instead the pipeline announces the range with
/// `dropped` and asks the app's side for the state that closes it
/// (``pushSnapshot(afterSeq:finishedNanos:state:reason:)`` with ``closingReason``), or takes the first later entry
/// that kept its state, whichever comes first; the timeline says honestly where detail was lost.
///
/// Entries count against the budget from ``push(seq:finishedNanos:action:source:state:reducerNanos:)`` until the
/// pipeline ``release(_:)``s them after encoding and sending, so the outbox and the batch in the pipeline's hands
/// together stay within it. Both queues are chunked (``ChunkedQueue``): a push never copies what is
/// already queued, however long the queue.
///
/// Threading: the `push` methods from the store's thread; ``drain(waitingUpTo:limit:)`` and
/// ``updateCosts(stateCharge:actionBytes:reservedBytes:)`` from the pipeline thread. Safe for exactly that pairing (one producer,
/// one consumer); all state is guarded by `queue`'s lock.
///
/// Threading (continued): ``updateCosts(stateCharge:actionBytes:reservedBytes:)`` and ``refuseStates(_:)`` from the
/// pipeline thread as well.
///
/// The producer's side (``push(seq:finishedNanos:action:source:state:reducerNanos:)``) is inlinable so that it is
/// specialized for the app's types: run unspecialized, generic code looks up type metadata at run time on every
/// call, which costs the app's thread more than the copy itself.
@usableFromInline
final class Outbox<State: Sendable, Action: Sendable>: @unchecked Sendable {
    /// One dispatched action as the pipeline receives it, or a state replaced by a command (a *snapshot* entry).
    struct Entry: Sendable {
        /// The action's number: 1 for the first action dispatched after the inspector was attached. A snapshot
        /// entry carries the number of the last action before it.
        let seq: UInt64
        /// When the dispatch finished, nanoseconds on ``DispatchClock``'s monotonic clock (the pipeline turns it
        /// into wall-clock time, so the app's thread reads one clock, twice, and nothing else).
        let finishedNanos: UInt64
        /// The action, as dispatched; nil for a snapshot entry.
        let action: Action?
        /// Where the action was dispatched.
        let source: SourceLocation?
        /// Why the state was replaced (`jump`, `replay`, `resync`); snapshot entries only.
        let reason: String?
        /// The state right after the action, or nil when the outbox coalesced it away.
        let state: State?
        /// Time spent in the rest of the dispatch chain (reducer, inner middleware, notification), nanoseconds.
        let reducerNanos: UInt64
        /// Actions dropped entirely just before this one (their numbers are `seq - lostBefore ..< seq`; for a
        /// snapshot entry, `seq - lostBefore + 1 ... seq`).
        let lostBefore: UInt64
    }

    /// One queued entry without its state (kept in ``Queue/states`` when it has one).
    @usableFromInline
    struct Record {
        @usableFromInline let seq: UInt64
        @usableFromInline let finishedNanos: UInt64
        @usableFromInline let reducerNanos: UInt64
        @usableFromInline let lostBefore: UInt64
        @usableFromInline let action: Action?
        @usableFromInline let source: SourceLocation?
        /// What this record is charged against the action budget.
        @usableFromInline let charge: Int32
        /// True when its state is the next one in ``Queue/states``.
        @usableFromInline let hasState: Bool

        @inlinable
        init(seq: UInt64, finishedNanos: UInt64, reducerNanos: UInt64, lostBefore: UInt64, action: Action?,
             source: SourceLocation?, charge: Int32, hasState: Bool) {
            self.seq = seq
            self.finishedNanos = finishedNanos
            self.reducerNanos = reducerNanos
            self.lostBefore = lostBefore
            self.action = action
            self.source = source
            self.charge = charge
            self.hasState = hasState
        }
    }

    /// One kept state, with the reason of a snapshot entry and its charge against the state budget.
    @usableFromInline
    struct KeptState {
        @usableFromInline let state: State
        @usableFromInline let reason: String?
        @usableFromInline let charge: Int

        @inlinable
        init(state: State, reason: String?, charge: Int) {
            self.state = state
            self.reason = reason
            self.charge = charge
        }
    }

    /// What one ``drain(waitingUpTo:limit:)`` hands to the pipeline.
    struct Drained: Sendable {
        /// Entries in dispatch order.
        var entries: [Entry] = []
        /// True when these were the last queued entries (``lostAfter`` and ``latestSeq`` are only given then).
        var isFinal = true
        /// Actions dropped entirely after the last entry (their numbers end at ``latestSeq``).
        var lostAfter: UInt64 = 0
        /// The number of the newest action pushed so far (on a final drain).
        var latestSeq: UInt64 = 0
        /// What these entries are charged against the budgets; hand it back with ``Outbox/release(_:)`` once
        /// the pipeline no longer holds them.
        var charge = Charge()
    }

    /// Bytes charged against the budget, for states and for actions.
    struct Charge: Sendable {
        var stateBytes = 0
        var actionBytes = 0
    }

    /// What the lock guards: the queues and their accounting, kept together so that a push touches few cache lines.
    @usableFromInline
    struct Queue {
        @usableFromInline var records = ChunkedQueue<Record>()
        @usableFromInline var states = ChunkedQueue<KeptState>(initialCapacity: 256)
        @usableFromInline var stateChargedBytes = 0
        @usableFromInline var actionChargedBytes = 0
        @usableFromInline var lostRun: UInt64 = 0
        @usableFromInline var latestSeq: UInt64 = 0
        @usableFromInline var stateCost: Int
        @usableFromInline var actionCost: Int
        /// What the pipeline holds itself, charged against the same budget.
        @usableFromInline var reservedBytes = 0
        /// True while the pipeline saw the process's resident memory grow past the budget: no state is kept.
        @usableFromInline var statesRefused = false
        var closed = false
        var poked = false
        /// True while the pipeline waits parked: the next push wakes it (and clears this).
        @usableFromInline var parked = false
        /// How many times a push woke a parked pipeline (for tests and benchmarks).
        @usableFromInline var parkedWakeUps: UInt64 = 0

        init(stateCost: Int, actionCost: Int) {
            self.stateCost = stateCost
            self.actionCost = actionCost
        }

        var isEmpty: Bool { records.isEmpty && lostRun == 0 }

        /// What the kept states are charged: what they were charged when kept, or, when a later measurement raised
        /// the charge of a state, the states still queued at that charge (whichever is more).
        @inlinable
        var effectiveStateCharge: Int { Swift.max(stateChargedBytes, states.count &* stateCost) }
    }

    /// The queue and the lock that guards it, stored together.
    @usableFromInline let queue: MutexGuardedBuffer<Queue>
    /// Signalled by ``wake()`` and ``close()`` for a ``drain(waitingUpTo:limit:)`` that waits; the producer never
    /// touches it.
    private let wakeup = DispatchSemaphore(value: 0)

    /// The inspector's memory budget, in bytes: the queued entries and what the pipeline reserves together.
    @usableFromInline let budgetBytes: Int

    /// What one queued entry costs in memory before its action's own storage: its record's slot.
    static var recordBytes: Int { MemoryLayout<Record>.stride }

    /// What the allocator adds to each separate allocation an entry may make (its header and rounding), bytes.
    static var allocationOverhead: Int { 32 }

    /// Creates an empty outbox whose entries and the pipeline's reservation share `budgetBytes`. Until the pipeline
    /// first measures the state (``updateCosts(stateCharge:actionBytes:reservedBytes:)``), a state is charged a
    /// sixty-fourth of the budget: a few dozen states at most are kept on trust.
    init(budgetBytes: Int) {
        self.budgetBytes = max(budgetBytes, 1)
        let queue = Queue(stateCost: MemoryLayout<KeptState>.stride + self.budgetBytes / 64,
                          actionCost: MemoryLayout<Record>.stride + 64)
        self.queue = MutexGuardedBuffer.make(queue)
    }

    /// What queued entries may take: the budget less what the pipeline reserves, and never less than a quarter of the
    /// budget.
    @inlinable
    func queueBudget(_ queue: Queue) -> Int {
        Swift.max(budgetBytes / 4, budgetBytes &- queue.reservedBytes)
    }

    /// Queues one dispatched action. Store thread only; O(1); never blocks on the pipeline's work.
    @inlinable
    func push(seq: UInt64, finishedNanos: UInt64, action: Action, source: SourceLocation?, state: State,
              reducerNanos: UInt64) {
        enqueue(seq: seq, finishedNanos: finishedNanos, action: action, isSnapshot: false, source: source, reason: nil,
                state: state, reducerNanos: reducerNanos)
    }

    /// The reason of the snapshot the pipeline asks for to close a coalesced range.
    static var closingReason: String { "coalesced" }

    /// The number of the last action the app dispatched (pushed, kept or dropped) so far: what a `hello` sent now
    /// says it was sent after (``Hello/dispatched``). Threading: any thread (takes the lock).
    var latestDispatchedSeq: UInt64 {
        queue.withLock { $0.latestSeq }
    }

    /// Queues the store's state without an action: a state a command put in place (`reason`: `jump`, `replay`,
    /// `resync`), or the state the pipeline asked for to close a coalesced range (``closingReason``). A snapshot is
    /// never lost and keeps its state even over the budgets (there is one at a time per command, and the pipeline
    /// asks for a closing one again only once it has it). Store thread only; O(1).
    func pushSnapshot(afterSeq seq: UInt64, finishedNanos: UInt64, state: State, reason: String) {
        enqueue(seq: seq, finishedNanos: finishedNanos, action: nil, isSnapshot: true, source: nil, reason: reason,
                state: state, reducerNanos: 0)
    }

    /// Queues an entry: an action (`isSnapshot` false) or a snapshot (`action` nil, `isSnapshot` true). The caller
    /// says which, rather than the optional being tested: for an app's enum `Action` that test is a call through the
    /// type's metadata, a cache miss on the app's thread when it dispatches at human pace.
    @inlinable
    func enqueue(seq: UInt64, finishedNanos: UInt64, action: Action?, isSnapshot: Bool, source: SourceLocation?,
                 reason: String?, state: State, reducerNanos: UInt64) {
        let wakePipeline = queue.withLock { queue -> Bool in
            // A parked pipeline is woken once, by the first push after it parked (after the entry is queued).
            let wasParked = queue.parked
            if wasParked {
                queue.parked = false
                queue.parkedWakeUps += 1
            }
            let available = queueBudget(queue)
            // Actions are weighed against the states' charges as kept, so that a raised state charge makes the outbox
            // keep fewer states, never lose actions.
            guard isSnapshot
                || queue.stateChargedBytes + queue.actionChargedBytes + queue.actionCost <= available else {
                queue.lostRun += 1
                queue.latestSeq = seq
                return wasParked
            }
            let stateCharge = queue.effectiveStateCharge
            let keepState = isSnapshot || (!queue.statesRefused && stateCharge + queue.stateCost <= available / 4
                && stateCharge + queue.actionChargedBytes + queue.stateCost <= available)
            let actionCharge = queue.actionCost
            queue.records.append(Record(
                seq: seq, finishedNanos: finishedNanos, reducerNanos: reducerNanos, lostBefore: queue.lostRun,
                action: action, source: source, charge: Int32(clamping: actionCharge), hasState: keepState))
            queue.actionChargedBytes += actionCharge
            if keepState {
                let stateCharge = queue.stateCost
                queue.states.append(KeptState(state: state, reason: reason, charge: stateCharge))
                queue.stateChargedBytes += stateCharge
            }
            queue.lostRun = 0
            if !isSnapshot { queue.latestSeq = seq }
            return wasParked
        }
        if wakePipeline { wakeParkedPipeline() }
    }

    /// Wakes the pipeline parked in ``drain(waitingUpTo:limit:parking:)`` (the one system call a push may make, once
    /// per idle period).
    @usableFromInline
    func wakeParkedPipeline() {
        wakeup.signal()
    }

    /// Takes up to `limit` queued entries, oldest first, waiting up to `timeout` seconds for the first one.
    /// Pipeline thread only. Returns an empty value on timeout or after ``close()``.
    ///
    /// Taking a bounded number at a time lets the pipeline check the transport's backlog between batches, so a
    /// stalled daemon makes the outbox coalesce instead of the transport's queue growing past the budget.
    ///
    /// `parking`: the pipeline has been idle a while and waits to be woken rather than polling; the first push after
    /// it parked wakes it (see ``parkedWakeUps``), as do ``wake()`` and ``close()``; `timeout` still bounds the wait.
    func drain(waitingUpTo timeout: Double, limit: Int = .max, parking: Bool = false) -> Drained {
        let mustWait = queue.withLock { queue -> Bool in
            let wait = queue.isEmpty && !queue.closed && !queue.poked
            if wait && parking && timeout > 0 { queue.parked = true }
            return wait
        }
        if mustWait && timeout > 0 {
            _ = wakeup.wait(timeout: .now() + timeout)
        }
        return queue.withLock { queue in
            queue.parked = false
            queue.poked = false
            var drained = Drained()
            let records = queue.records.removeFirst(upTo: max(1, limit))
            drained.entries.reserveCapacity(records.count)
            for record in records {
                drained.charge.actionBytes += Int(record.charge)
                var kept: KeptState?
                if record.hasState {
                    let state = queue.states.removeFirst()
                    drained.charge.stateBytes += state.charge
                    kept = state
                }
                drained.entries.append(Entry(
                    seq: record.seq, finishedNanos: record.finishedNanos, action: record.action,
                    source: record.source, reason: kept?.reason, state: kept?.state,
                    reducerNanos: record.reducerNanos, lostBefore: record.lostBefore))
            }
            drained.isFinal = queue.records.isEmpty
            guard drained.isFinal else { return drained }
            drained.lostAfter = queue.lostRun
            drained.latestSeq = queue.latestSeq
            queue.lostRun = 0
            return drained
        }
    }

    /// Returns the charge of drained entries the pipeline has finished with. Pipeline thread only.
    ///
    /// A charge raised after the entries were kept (``Queue/effectiveStateCharge``) needs no return: it is worked out
    /// from the states still queued.
    func release(_ charge: Charge) {
        queue.withLock {
            $0.stateChargedBytes = max(0, $0.stateChargedBytes - charge.stateBytes)
            $0.actionChargedBytes = max(0, $0.actionChargedBytes - charge.actionBytes)
        }
    }

    /// Updates the charges from what the pipeline last measured: `stateCharge`, what holding one more state costs
    /// beyond its slot (what it does not share with the next state); `actionBytes`, the size of an encoded action
    /// (the part beyond the action's inline size is charged as storage it may hold outside the record, with the
    /// allocator's overhead); `reservedBytes`, what the pipeline holds itself. Pipeline thread only.
    ///
    /// `rechargeHeldStates`: the pipeline has just learnt what consecutive states share, and the states held so far
    /// were charged without knowing it (on trust, or their whole size): they are charged `stateCharge` each from now
    /// on, as the states pushed from now on are. (Otherwise a raised charge applies to the held states at once, a
    /// lowered one only as they drain.) Without it, the few dozen states queued while a large state's first encoding
    /// runs keep the states' share of the budget full until they drain, and every state pushed meanwhile is coalesced.
    func updateCosts(stateCharge: Int, actionBytes: Int, reservedBytes: Int, rechargeHeldStates: Bool = false) {
        let outside = max(0, actionBytes - MemoryLayout<Action>.size)
        queue.withLock {
            $0.stateCost = stateCharge + MemoryLayout<KeptState>.stride
            if rechargeHeldStates { $0.stateChargedBytes = min($0.stateChargedBytes, $0.states.count &* $0.stateCost) }
            $0.actionCost = MemoryLayout<Record>.stride + (outside > 0 ? outside + Self.allocationOverhead : 0)
            $0.reservedBytes = reservedBytes
        }
    }

    /// Refuses every state (`true`: the entries pushed from now on keep only their actions) or lets the charges
    /// decide again (`false`): the pipeline's answer to the process's resident memory (see the type's
    /// documentation). Pipeline thread only.
    func refuseStates(_ refuse: Bool) {
        queue.withLock { $0.statesRefused = refuse }
    }

    /// What one more state and one more action are charged now, and what the pipeline reserves (for tests and
    /// benchmarks).
    var costs: (state: Int, action: Int, reserved: Int) {
        queue.withLock { ($0.stateCost, $0.actionCost, $0.reservedBytes) }
    }

    /// The newest state the outbox holds, for the pipeline to measure (states can grow faster than the pipeline
    /// drains them, and while it is disconnected it drains nothing). Pipeline thread only.
    var newestState: State? {
        queue.withLock { $0.states.last?.state }
    }

    /// The newest state the outbox holds and the one queued before it (nil when only one is held), for the pipeline
    /// to learn what one state shares with the next. Pipeline thread only.
    var newestStates: (previous: State?, newest: State)? {
        queue.withLock { queue in
            guard let newest = queue.states.last?.state else { return nil }
            return (queue.states.secondLast?.state, newest)
        }
    }

    /// True when what is queued, and what the pipeline holds of what it drained, is charged at most `bytes` and no
    /// action was dropped since the last drain. Pipeline thread.
    func holds(atMost bytes: Int) -> Bool {
        queue.withLock { $0.lostRun == 0 && $0.effectiveStateCharge + $0.actionChargedBytes <= bytes }
    }

    /// True when nothing is queued and the pipeline holds nothing it drained (everything was handed on).
    var isEmpty: Bool {
        queue.withLock { $0.isEmpty && $0.stateChargedBytes == 0 && $0.actionChargedBytes == 0 }
    }

    /// Bytes currently charged against the budget, for states and for actions (for tests and statistics).
    var currentCharge: Charge {
        queue.withLock { Charge(stateBytes: $0.effectiveStateCharge, actionBytes: $0.actionChargedBytes) }
    }

    /// How many times a push woke the parked pipeline (at most once per idle period). Any thread.
    var parkedWakeUps: UInt64 {
        queue.withLock { $0.parkedWakeUps }
    }

    /// Wakes a waiting ``drain(waitingUpTo:)`` once (for example when the connection comes up).
    func wake() {
        queue.withLock { $0.poked = true }
        wakeup.signal()
    }

    /// Wakes a waiting ``drain(waitingUpTo:)`` for good; later drains return at once.
    func close() {
        queue.withLock { $0.closed = true }
        wakeup.signal()
    }
}
