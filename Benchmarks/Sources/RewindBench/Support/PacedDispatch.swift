import BenchKit
import Foundation
import Rewind

/// Dispatches one-field changes into a store at a fixed rate: sleeping when the next action is more than 200 µs
/// away, spinning on the clock below that (so rates of 100,000/s and more are reachable).
///
/// Threading: main actor, like the store.
@MainActor
enum PacedDispatch {
    /// Dispatches `touches` into `store` at `rate` actions per second for `seconds`; returns how many were sent and
    /// the seconds it took.
    static func run(_ store: Store<BenchState, BenchAction>, _ touches: inout TouchSequence, rate: Double,
                    seconds: Double) -> (sent: Int, elapsed: Double) {
        let start = MonotonicClock.seconds()
        let end = start + seconds
        var sent = 0
        while true {
            let due = start + Double(sent) / rate
            if due >= end { break }
            var now = MonotonicClock.seconds()
            if due - now > 0.000_2 { usleep(UInt32((due - now - 0.000_1) * 1e6)) }
            while now < due { now = MonotonicClock.seconds() }
            store.dispatch(touches.next())
            sent += 1
        }
        return (sent, MonotonicClock.seconds() - start)
    }
}
