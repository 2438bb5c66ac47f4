#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Nanosecond readings of the system's monotonic clock (`CLOCK_MONOTONIC`, a vDSO call on Linux: ~20 ns), and
/// of the calling thread's CPU time.
///
/// Threading: stateless; any thread.
package enum MonotonicClock {
    /// Nanoseconds since an arbitrary fixed point (boot); only differences mean anything.
    @inline(__always)
    package static func nanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// Seconds since an arbitrary fixed point, as a `Double`.
    @inline(__always)
    package static func seconds() -> Double {
        Double(nanoseconds()) / 1e9
    }

    /// CPU time the calling thread has used, in nanoseconds.
    package static func threadCPUNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// CPU time used by all the process's threads so far, in nanoseconds.
    package static func processCPUNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// The median cost of one `nanoseconds()` reading, measured now (subtract it from very short timings).
    package static func readingCost(samples: Int = 100_000) -> Double {
        var values: [Double] = []
        values.reserveCapacity(samples / 100)
        for _ in 0..<(samples / 100) {
            let start = nanoseconds()
            for _ in 0..<99 { _ = nanoseconds() }
            let end = nanoseconds()
            values.append(Double(end &- start) / 100)
        }
        return Samples(values).median
    }
}
