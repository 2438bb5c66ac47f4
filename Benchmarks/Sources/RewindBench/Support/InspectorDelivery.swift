import BenchKit
import Foundation
import RewindInspector

/// Waiting for the inspectors of this process to have everything dispatched so far accounted for by the daemon
/// (committed, or counted lost), at a finer grain than `Inspector.waitUntilAccountedFor(timeout:)` (which sleeps 2 ms
/// between checks).
///
/// Threading: any thread; blocks the caller.
enum InspectorDelivery {
    /// Spins (sleeping `pause` seconds between checks) until every inspector has delivered everything; returns
    /// the seconds it took. Throws after `timeout` seconds.
    ///
    /// Blocks the main actor, so it only serves where the outbox cannot have coalesced (paced dispatch): the
    /// snapshot that closes a coalesced range is read on the main actor. Elsewhere use ``settle(timeout:)``.
    @discardableResult
    static func wait(timeout: Double = 60, pause: Double = 0.000_02) throws -> Double {
        let start = MonotonicClock.seconds()
        while !Inspector.waitUntilAccountedFor(timeout: 0) {
            if MonotonicClock.seconds() - start > timeout {
                throw BenchFailure("the inspector did not deliver everything within \(Int(timeout)) s")
            }
            usleep(UInt32(pause * 1e6))
        }
        return MonotonicClock.seconds() - start
    }

    /// Waits like ``wait(timeout:pause:)`` but suspends between checks, leaving the main actor free to provide the
    /// snapshot that closes a coalesced range (after a burst, or any step that may have coalesced).
    ///
    /// With `app`, waits only for the inspectors recording under that name (a run that follows another must not
    /// wait for the previous one's inspector, which may be stopping with events its daemon never confirmed).
    @discardableResult
    static func settle(timeout: Double = 60, app: String? = nil) async throws -> Double {
        let start = MonotonicClock.seconds()
        func delivered() -> Bool {
            app.map { Inspector.waitUntilAccountedFor(app: $0, timeout: 0) } ?? Inspector.waitUntilAccountedFor(timeout: 0)
        }
        while !delivered() {
            if MonotonicClock.seconds() - start > timeout {
                throw BenchFailure("the inspector did not deliver everything within \(Int(timeout)) s")
            }
            try await Task.sleep(nanoseconds: 100_000)
        }
        return MonotonicClock.seconds() - start
    }
}
