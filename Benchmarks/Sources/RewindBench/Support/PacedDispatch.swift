import BenchKit
import Foundation
import Rewind

/// Dispatches one-field changes into a store at a fixed rate: sleeping when the next action is more than 200 µs
/// away, spinning on the clock below that (so rates of 100,000/s and more are reachable).
///
/// Threading: main actor, like the store.
@MainActor
enum PacedDispatch {
    /// What one run did.
    struct Run {
        /// Actions dispatched.
        var sent: Int
        /// Seconds from the first dispatch's due time to the end of the run.
        var elapsed: Double
        /// How long each `dispatch` took on the app's thread, nanoseconds.
        var dispatchNanos: Samples
        /// Processor time the app's thread used during the run (its spinning included), nanoseconds.
        var appThreadCPUNanos: UInt64
    }

    /// How much later than asked a `usleep` ends on Linux (50 µs of timer slack and the wake-up), in seconds.
    static let sleepOvershoot = 0.000_06

    /// Dispatches `touches` into `store` at `rate` actions per second for `seconds`, timing each dispatch.
    static func run(_ store: Store<BenchState, BenchAction>, _ touches: inout TouchSequence, rate: Double,
                    seconds: Double) -> Run {
        let cpuBefore = MonotonicClock.threadCPUNanoseconds()
        let start = MonotonicClock.seconds()
        let end = start + seconds
        var sent = 0
        var nanos: [Double] = []
        nanos.reserveCapacity(Int(rate * seconds) + 1)
        while true {
            let due = start + Double(sent) / rate
            if due >= end { break }
            var now = MonotonicClock.seconds()
            // A sleep ends about 55 µs late (the kernel's default timer slack and the wake-up): sleep until then.
            if due - now > Self.sleepOvershoot + 0.000_01 { usleep(UInt32((due - now - Self.sleepOvershoot) * 1e6)) }
            while now < due { now = MonotonicClock.seconds() }
            let action = touches.next()
            let before = MonotonicClock.nanoseconds()
            store.dispatch(action)
            nanos.append(Double(MonotonicClock.nanoseconds() &- before))
            sent += 1
        }
        return Run(sent: sent, elapsed: MonotonicClock.seconds() - start, dispatchNanos: Samples(nanos),
                   appThreadCPUNanos: MonotonicClock.threadCPUNanoseconds() &- cpuBefore)
    }
}
