import BenchKit
import Foundation

/// Measures what waking a sleeping thread costs the waker: a thread waits on a condition (as the inspector's
/// pipeline thread waits on its outbox), the caller signals it and times the signalling. After each wake-up the
/// thread works for a given time (as the pipeline then encodes the new state), which changes what the waker pays
/// on a busy machine.
///
/// Threading: `measure` from one thread; the probe's own thread only waits and counts. State guarded by
/// `condition` (why `@unchecked Sendable` is safe).
final class WakeProbe: @unchecked Sendable {
    private let condition = NSCondition()
    private var asleep = false
    private var pending = 0
    private var stopping = false

    /// Signals the sleeping thread as `plan` says (sleeping 1 ms longer than `work` between signals, so that it is
    /// asleep again) and returns the time each signalling took the caller, nanoseconds. The woken thread spins for
    /// `work` seconds after each wake-up.
    func measure(_ plan: SamplingPlan, work: Double = 0) -> Samples {
        let thread = Thread { [self] in
            condition.lock()
            while !stopping {
                if pending == 0 {
                    asleep = true
                    _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05))
                    asleep = false
                }
                let woken = pending > 0
                pending = 0
                if woken && work > 0 {
                    condition.unlock()
                    let end = MonotonicClock.seconds() + work
                    while MonotonicClock.seconds() < end {}
                    condition.lock()
                }
            }
            condition.unlock()
        }
        thread.name = "bench.wake-probe"
        thread.start()
        let samples = Sampler.collect(plan) {
            usleep(1_000 + UInt32(work * 1e6))
            let start = MonotonicClock.nanoseconds()
            condition.lock()
            pending += 1
            let wake = asleep
            asleep = false
            condition.unlock()
            if wake { condition.signal() }
            return Double(MonotonicClock.nanoseconds() &- start)
        }
        condition.lock()
        stopping = true
        condition.unlock()
        condition.broadcast()
        return samples
    }
}
