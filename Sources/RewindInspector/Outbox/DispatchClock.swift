#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The clock the app's thread reads on each dispatch: the monotonic clock, read directly.
///
/// The app's thread reads it twice per dispatch (around the rest of the chain) and nothing else; the wall-clock
/// time an event carries is derived later on the pipeline thread with ``wallOffsetSeconds()``, so the dispatch
/// path calls no Foundation or Dispatch code at all (each library's code is more instruction cache to miss when the
/// app dispatches on cold caches).
///
/// Threading: any thread.
@usableFromInline
enum DispatchClock {
    /// Nanoseconds on the monotonic clock (`CLOCK_MONOTONIC`): a vDSO read, no system call.
    @inlinable
    static func nanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
    }

    /// What to add to `Double(nanoseconds()) / 1e9` to get wall-clock seconds since 1970, as of now.
    ///
    /// Read once per batch of entries: a timestamp is off by at most the wall clock's adjustment since the
    /// dispatch (milliseconds at worst, while NTP steps the clock).
    static func wallOffsetSeconds() -> Double {
        let monotonic = nanoseconds()
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        return (Double(wall.tv_sec) + Double(wall.tv_nsec) / 1e9) - Double(monotonic) / 1e9
    }
}
