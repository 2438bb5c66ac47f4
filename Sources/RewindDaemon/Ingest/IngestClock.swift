import Foundation
import RewindSessionFile

/// The two readings of time ``AppIngest`` is given with each input, so that it reads no clock itself (and a
/// simulation can run it on a clock of its own).
///
/// Threading: a plain value.
package struct IngestClock: Sendable, Equatable {
    /// Seconds on a monotonic clock: for how long things wait (acknowledgments).
    package var monotonic: Double
    /// Seconds since 1970: the time written on the rows the daemon records itself.
    package var wall: Double

    /// A reading.
    package init(monotonic: Double, wall: Double) {
        self.monotonic = monotonic
        self.wall = wall
    }

    /// The system's clocks now.
    package static var now: IngestClock {
        IngestClock(monotonic: Double(DispatchTime.now().uptimeNanoseconds) / 1e9,
                    wall: Date().timeIntervalSince1970)
    }
}
