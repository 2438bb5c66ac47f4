import Dispatch
import Foundation
import RewindSessionFile

/// Computes values concurrently and hands them to a serial queue in the order they were submitted, with a bound on
/// how many are computed ahead of the serial queue.
///
/// An app connection uses it to decode its messages on both processors at once (parsing is the most expensive step
/// of ingest, and one message's parse does not depend on another's) while its state machine still sees the messages
/// in the order they arrived. At most ``maxInFlight`` values are being computed or waiting for the serial queue at
/// any time; later submissions wait, uncomputed, in submission order. So when the serial stage is the slower one,
/// what piles up is the raw input (as it would with no handoff at all), not computed values, which may be larger.
///
/// Threading (why `@unchecked Sendable` is safe): ``submit(_:)`` and ``submitComputed(_:)`` may be called from any
/// thread. `lock` guards the ticket counters, the waiting submissions and the finished values waiting for an
/// earlier one. Handing a run of values to `target` happens under `lock`, so runs reach `target` in ticket order;
/// `handle` then runs on `target` only.
final class OrderedHandoff<Value: Sendable>: @unchecked Sendable {
    /// How many values may be computing or waiting for the serial queue at once.
    let maxInFlight: Int
    private let work: DispatchQueue
    private let target: DispatchQueue
    private let handle: @Sendable (Value) -> Void
    private let lock = NSLock()
    private var nextTicket: UInt64 = 0
    private var nextToHand: UInt64 = 0
    private var inFlight = 0
    private var waiting: [(ticket: UInt64, make: @Sendable () -> Value)] = []
    private var waitingHead = 0
    private var finished: [UInt64: Value] = [:]

    /// A handoff that computes on `work` (a concurrent queue) and calls `handle` on `target` (a serial queue),
    /// with at most `maxInFlight` values computed ahead of `handle`.
    init(work: DispatchQueue, target: DispatchQueue, maxInFlight: Int = 4,
         handle: @escaping @Sendable (Value) -> Void) {
        self.work = work
        self.target = target
        self.maxInFlight = max(1, maxInFlight)
        self.handle = handle
    }

    /// Computes `make()` on the work queue; its value reaches `handle` after the values of every earlier call.
    func submit(_ make: @escaping @Sendable () -> Value) {
        lock.lock()
        let ticket = nextTicket
        nextTicket += 1
        guard inFlight < maxInFlight else {
            waiting.append((ticket, make))
            lock.unlock()
            return
        }
        inFlight += 1
        lock.unlock()
        start(ticket, make)
    }

    /// Hands `value` (already computed) on after the values of every earlier call.
    func submitComputed(_ value: Value) {
        submit { value }
    }

    private func start(_ ticket: UInt64, _ make: @escaping @Sendable () -> Value) {
        work.async { [self] in
            finish(ticket, make())
        }
    }

    private func finish(_ ticket: UInt64, _ value: Value) {
        lock.lock()
        defer { lock.unlock() }
        guard ticket == nextToHand else {
            finished[ticket] = value
            return
        }
        var run = [value]
        nextToHand += 1
        while let next = finished.removeValue(forKey: nextToHand) {
            run.append(next)
            nextToHand += 1
        }
        let values = run
        target.async { [self] in
            for value in values {
                handle(value)
                handled()
            }
        }
    }

    /// One value left the pipeline: starts the oldest waiting submission, if any.
    private func handled() {
        lock.lock()
        guard waitingHead < waiting.count else {
            inFlight -= 1
            if waitingHead > 0 {
                waiting.removeAll(keepingCapacity: waiting.capacity <= 1024)
                waitingHead = 0
            }
            lock.unlock()
            return
        }
        let next = waiting[waitingHead]
        waitingHead += 1
        if waitingHead >= 1024 && waitingHead * 2 >= waiting.count {
            waiting.removeFirst(waitingHead)
            waitingHead = 0
        }
        lock.unlock()
        start(next.ticket, next.make)
    }
}
