import Dispatch

/// Seconds on a clock that never jumps (system uptime), for frame pacing and throttling: the default clock of
/// `TimelineApp` and `TimelineController`. Internal (usable from their default arguments) so that it does not
/// clash with other modules' clocks of the same name. Pure function of the system clock: safe from any thread.
@usableFromInline
enum MonotonicClock {
    /// Seconds since an arbitrary fixed origin.
    @usableFromInline
    static func now() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1_000_000_000
    }
}
