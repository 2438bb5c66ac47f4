#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The monotonic clock the service loops use for their shutdown deadlines.
///
/// Threading: stateless, usable from any thread.
enum MonotonicClock {
    /// Milliseconds since an arbitrary fixed point (CLOCK_MONOTONIC); only differences mean anything.
    static func milliseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int(now.tv_sec) * 1_000 + Int(now.tv_nsec) / 1_000_000
    }
}
