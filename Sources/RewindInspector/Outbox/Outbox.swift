import Dispatch
import Rewind

/// The bounded hand-off between the app's thread and the inspector's pipeline thread.
///
/// The app's thread calls ``push(seq:finishedNanos:action:source:state:reducerNanos:)`` once per dispatched action.
/// That call only copies values into an array under a lock held for a few instructions: no encoding, no allocation
/// beyond the array's amortised growth, and no system call — it never wakes the pipeline thread, which instead polls
/// the outbox on a ``PollSchedule``: every 4 ms while the app is idle (a few hundred cheap wake-ups a second), more
/// often while it dispatches quickly, so that a state is encoded and released before the app's next change (which
/// would otherwise copy the arrays on its path). The lock is a pthread mutex stored in the same allocation as the queue
/// it guards (``MutexGuardedBuffer``), so an uncontended push is a compare-and-exchange next to the lines it writes
/// anyway: when the app dispatches after a pause, on cold caches, every further line (a separate lock object,
/// Foundation's code) costs it a miss.
///
/// The outbox has a byte budget. Every queued entry is charged an *estimate* of what it holds: the size of the
/// action's encoding and, when the entry keeps its state, the size of the state's encoding, both as last measured
/// by the pipeline thread (``updateCosts(stateBytes:actionBytes:)``). The estimate is conservative (state values
/// share storage, so real memory is usually lower). When the budget would be exceeded the outbox *coalesces*:
///
/// 1. it keeps the action but drops its state (the entry becomes *stateless*);
/// 2. when even the action does not fit, it drops the action too and counts it as *lost*.
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
/// together stay within the budget.
///
/// Threading: the `push` methods from the store's thread; ``drain(waitingUpTo:)`` and
/// ``updateCosts(stateBytes:actionBytes:)`` from the pipeline thread. Safe for exactly that pairing (one producer,
/// one consumer); all state is guarded by `queue`'s lock.
///
/// The producer's side (``push(seq:finishedNanos:action:source:state:reducerNanos:)``) is inlinable so that it is
/// specialized for the app's types: run unspecialized, generic code looks up type metadata at run time on every
/// call, which costs the app's thread more than the copy itself.
@usableFromInline
final class Outbox<State: Sendable, Action: Sendable>: @unchecked Sendable {
    /// One dispatched action as the app's thread saw it, or a state replaced by a command (a *snapshot* entry).
    @usableFromInline
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
        /// Actions dropped entirely just before this one (their numbers are `seq - lostBefore ..< seq`).
        let lostBefore: UInt64
        /// What this entry is charged against the budget.
        let charge: Int

        @usableFromInline
        init(seq: UInt64, finishedNanos: UInt64, action: Action?, source: SourceLocation?, reason: String?,
             state: State?, reducerNanos: UInt64, lostBefore: UInt64, charge: Int) {
            self.seq = seq
            self.finishedNanos = finishedNanos
            self.action = action
            self.source = source
            self.reason = reason
            self.state = state
            self.reducerNanos = reducerNanos
            self.lostBefore = lostBefore
            self.charge = charge
        }
    }

    /// What one ``drain(waitingUpTo:)`` hands to the pipeline.
    struct Drained: Sendable {
        /// Entries in dispatch order.
        var entries: [Entry] = []
        /// True when these were the last queued entries (``lostAfter`` and ``latestSeq`` are only given then).
        var isFinal = true
        /// Actions dropped entirely after the last entry (their numbers end at ``latestSeq``).
        var lostAfter: UInt64 = 0
        /// The number of the newest action pushed so far (on a final drain).
        var latestSeq: UInt64 = 0
        /// What these entries are charged against the budget; hand it back with ``Outbox/release(_:)`` once
        /// the pipeline no longer holds them.
        var charge = 0
    }

    /// What the lock guards: the queue and its accounting, kept together so that a push touches few cache lines.
    @usableFromInline
    struct Queue {
        @usableFromInline var entries: [Entry] = []
        var head = 0
        @usableFromInline var chargedBytes = 0
        @usableFromInline var lostRun: UInt64 = 0
        @usableFromInline var latestSeq: UInt64 = 0
        @usableFromInline var stateCost: Int
        @usableFromInline var actionCost: Int
        var closed = false
        var poked = false

        init(stateCost: Int, actionCost: Int) {
            self.stateCost = stateCost
            self.actionCost = actionCost
        }

        var isEmpty: Bool { head == entries.count && lostRun == 0 }
    }

    /// The queue and the lock that guards it, stored together.
    @usableFromInline let queue: MutexGuardedBuffer<Queue>
    /// Signalled by ``wake()`` and ``close()`` for a ``drain(waitingUpTo:)`` that waits; the producer never
    /// touches it.
    private let wakeup = DispatchSemaphore(value: 0)


    /// The most the queued entries may be charged, in bytes.
    @usableFromInline let budgetBytes: Int

    /// Creates an empty outbox charging entries against `budgetBytes`.
    init(budgetBytes: Int) {
        self.budgetBytes = max(budgetBytes, 1)
        var queue = Queue(stateCost: MemoryLayout<State>.stride + 64, actionCost: MemoryLayout<Entry>.stride + 64)
        queue.entries.reserveCapacity(1024)
        self.queue = MutexGuardedBuffer.make(queue)
    }

    /// Queues one dispatched action. Store thread only; O(1); never blocks on the pipeline's work.
    @inlinable
    func push(seq: UInt64, finishedNanos: UInt64, action: Action, source: SourceLocation, state: State,
              reducerNanos: UInt64) {
        enqueue(seq: seq, finishedNanos: finishedNanos, action: action, source: source, reason: nil, state: state,
                reducerNanos: reducerNanos)
    }

    /// The reason of the snapshot the pipeline asks for to close a coalesced range.
    static var closingReason: String { "coalesced" }

    /// Queues the store's state without an action: a state a command put in place (`reason`: `jump`, `replay`,
    /// `resync`), or the state the pipeline asked for to close a coalesced range (``closingReason``), which keeps its
    /// state even over the budget (one state at a time: the pipeline asks again only once it has it). Store thread
    /// only; O(1).
    func pushSnapshot(afterSeq seq: UInt64, finishedNanos: UInt64, state: State, reason: String) {
        enqueue(seq: seq, finishedNanos: finishedNanos, action: nil, source: nil, reason: reason, state: state,
                reducerNanos: 0, overBudget: reason == Self.closingReason)
    }

    @inlinable
    func enqueue(seq: UInt64, finishedNanos: UInt64, action: Action?, source: SourceLocation?, reason: String?,
                 state: State, reducerNanos: UInt64, overBudget: Bool = false) {
        queue.withLock { queue in
            let withState = overBudget
                || queue.chargedBytes + queue.actionCost + queue.stateCost <= budgetBytes
            if withState || queue.chargedBytes + queue.actionCost <= budgetBytes {
                let charge = queue.actionCost + (withState ? queue.stateCost : 0)
                queue.entries.append(Entry(
                    seq: seq, finishedNanos: finishedNanos, action: action, source: source, reason: reason,
                    state: withState ? state : nil, reducerNanos: reducerNanos, lostBefore: queue.lostRun,
                    charge: charge))
                queue.chargedBytes += charge
                queue.lostRun = 0
            } else {
                queue.lostRun += 1
            }
            queue.latestSeq = seq
        }
    }

    /// Takes up to `limit` queued entries, oldest first, waiting up to `timeout` seconds for the first one.
    /// Pipeline thread only. Returns an empty value on timeout or after ``close()``.
    ///
    /// Taking a bounded number at a time lets the pipeline check the transport's backlog between batches, so a
    /// stalled daemon makes the outbox coalesce instead of the transport's queue growing past the budget.
    func drain(waitingUpTo timeout: Double, limit: Int = .max) -> Drained {
        let mustWait = queue.withLock { $0.isEmpty && !$0.closed && !$0.poked }
        if mustWait && timeout > 0 {
            _ = wakeup.wait(timeout: .now() + timeout)
        }
        return queue.withLock { queue in
            queue.poked = false
            var drained = Drained()
            let end = min(queue.entries.count, queue.head + max(1, limit))
            drained.entries = Array(queue.entries[queue.head..<end])
            drained.charge = drained.entries.reduce(0) { $0 + $1.charge }
            queue.head = end
            if queue.head == queue.entries.count {
                queue.entries.removeAll(keepingCapacity: true)
                queue.head = 0
            } else if queue.head > 4096 && queue.head * 2 > queue.entries.count {
                queue.entries.removeFirst(queue.head)
                queue.head = 0
            }
            drained.isFinal = queue.head == queue.entries.count
            guard drained.isFinal else { return drained }
            drained.lostAfter = queue.lostRun
            drained.latestSeq = queue.latestSeq
            queue.lostRun = 0
            return drained
        }
    }

    /// Returns the charge of drained entries the pipeline has finished with. Pipeline thread only.
    func release(_ charge: Int) {
        queue.withLock { $0.chargedBytes = max(0, $0.chargedBytes - charge) }
    }

    /// Updates the per-entry charges from what the pipeline last measured. Pipeline thread only.
    func updateCosts(stateBytes: Int, actionBytes: Int) {
        queue.withLock {
            $0.stateCost = stateBytes + MemoryLayout<State>.stride
            $0.actionCost = actionBytes + MemoryLayout<Entry>.stride
        }
    }

    /// True when nothing is queued and the pipeline holds nothing it drained (everything was handed on).
    var isEmpty: Bool {
        queue.withLock { $0.isEmpty && $0.chargedBytes == 0 }
    }

    /// Bytes currently charged (for tests and statistics).
    var currentChargedBytes: Int {
        queue.withLock { $0.chargedBytes }
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
