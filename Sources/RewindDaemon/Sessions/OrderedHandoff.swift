import Dispatch
import Foundation

/// Computes values concurrently and hands them to a serial queue in the order they were submitted.
///
/// An app connection uses it to decode its messages on every processor at once (parsing is the most expensive
/// step of ingest, and one message's parse does not depend on another's) while its state machine still sees the
/// messages in the order they arrived.
///
/// Threading (why `@unchecked Sendable` is safe): `submit` may be called from any thread. `lock` guards the ticket
/// counters and the finished values waiting for an earlier one. Handing a run of values to `target` happens under
/// `lock`, so runs reach `target` in ticket order; `handle` then runs on `target` only.
final class OrderedHandoff<Value: Sendable>: @unchecked Sendable {
    private let work: DispatchQueue
    private let target: DispatchQueue
    private let handle: @Sendable (Value) -> Void
    private let lock = NSLock()
    private var nextTicket: UInt64 = 0
    private var nextToHand: UInt64 = 0
    private var finished: [UInt64: Value] = [:]

    /// A handoff that computes on `work` (a concurrent queue) and calls `handle` on `target` (a serial queue).
    init(work: DispatchQueue, target: DispatchQueue, handle: @escaping @Sendable (Value) -> Void) {
        self.work = work
        self.target = target
        self.handle = handle
    }

    /// Computes `make()` on the work queue; its value reaches `handle` after the values of every earlier call.
    func submit(_ make: @escaping @Sendable () -> Value) {
        let ticket = lock.withLock {
            defer { nextTicket += 1 }
            return nextTicket
        }
        work.async { [self] in
            finish(ticket, make())
        }
    }

    /// Hands `value` (already computed) on after the values of every earlier call, without the work queue.
    func submitComputed(_ value: Value) {
        let ticket = lock.withLock {
            defer { nextTicket += 1 }
            return nextTicket
        }
        finish(ticket, value)
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
        let handle = handle, values = run
        target.async {
            for value in values { handle(value) }
        }
    }
}
