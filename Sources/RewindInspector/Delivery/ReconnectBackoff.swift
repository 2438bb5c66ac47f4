/// Delays between connection attempts: exponential, capped, with jitter, forever.
///
/// The first retry waits ``initialDelay``; each failure doubles the delay up to ``maximumDelay``; every delay is
/// spread by ±``jitter`` so that many apps restarted together do not reconnect in lock-step. A successful
/// connection resets it. The cap is kept at one second by default so that an app finds a restarted daemon within
/// two seconds.
///
/// Threading: a value type owned by the pipeline thread.
struct ReconnectBackoff: Sendable {
    /// The delay after the first failure, in seconds.
    var initialDelay: Double = 0.05
    /// The largest delay, in seconds.
    var maximumDelay: Double = 1.0
    /// The relative spread of each delay (0.2 = ±20 %).
    var jitter: Double = 0.2
    /// Failures since the last successful connection.
    private(set) var failures = 0

    /// The delay to wait before the next attempt, counting one more failure.
    mutating func nextDelay<G: RandomNumberGenerator>(using generator: inout G) -> Double {
        let exponent = min(failures, 30)
        failures += 1
        let base = min(maximumDelay, initialDelay * Double(1 << exponent))
        let spread = base * jitter
        return max(0, base + Double.random(in: -spread...spread, using: &generator))
    }

    /// The delay to wait before the next attempt, using the system's random numbers.
    mutating func nextDelay() -> Double {
        var generator = SystemRandomNumberGenerator()
        return nextDelay(using: &generator)
    }

    /// Forgets past failures after a successful connection.
    mutating func reset() { failures = 0 }
}
