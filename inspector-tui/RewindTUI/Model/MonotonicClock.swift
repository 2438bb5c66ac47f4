import Dispatch

/// Seconds on a clock that never jumps (system uptime), for frame pacing and throttling.
/// Pure function of the system clock: safe from any thread.
public enum MonotonicClock {
    /// Seconds since an arbitrary fixed origin.
    public static func now() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1_000_000_000
    }
}
