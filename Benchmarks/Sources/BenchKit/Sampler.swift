/// How long one measurement runs: until it has at least `minSamples` samples *and* `minSeconds` of wall time, or
/// `maxSamples` samples, or `maxSeconds` of wall time (a hard cap: slow work on an overloaded machine stops there
/// with at least 3 samples, even below `minSamples`).
///
/// Threading: a plain value; `Sendable`.
package struct SamplingPlan: Sendable, Hashable {
    /// The fewest samples taken, whatever the time.
    package var minSamples: Int
    /// The least wall time spent sampling, whatever the count (noisy machines need time more than counts).
    package var minSeconds: Double
    /// The most samples taken.
    package var maxSamples: Int
    /// The most wall time spent (once at least 3 samples are taken).
    package var maxSeconds: Double

    /// A plan; see the properties.
    package init(minSamples: Int, minSeconds: Double, maxSamples: Int = 1_000_000, maxSeconds: Double = 60) {
        self.minSamples = max(1, minSamples)
        self.minSeconds = max(0, minSeconds)
        self.maxSamples = max(self.minSamples, maxSamples)
        self.maxSeconds = max(self.minSeconds, maxSeconds)
    }
}

/// Runs a piece of work repeatedly and collects one timing per run.
///
/// Threading: stateless; the work runs synchronously in the caller's isolation (so a benchmark on the main actor
/// can time `@MainActor` work).
package enum Sampler {
    /// Times `body` once per sample (wall clock, nanoseconds, including one clock reading) until `plan` is met.
    /// `warmup` runs are made first and not recorded.
    package static func time(
        _ plan: SamplingPlan, warmup: Int = 3, isolation: isolated (any Actor)? = #isolation,
        _ body: () throws -> Void
    ) rethrows -> Samples {
        for _ in 0..<warmup { try body() }
        return try collect(plan, isolation: isolation) {
            let start = MonotonicClock.nanoseconds()
            try body()
            return Double(MonotonicClock.nanoseconds() &- start)
        }
    }

    /// Calls `sample` until `plan` is met; each call returns one measured value (so it can exclude its own
    /// set-up from the timing).
    package static func collect(
        _ plan: SamplingPlan, isolation: isolated (any Actor)? = #isolation, _ sample: () throws -> Double
    ) rethrows -> Samples {
        var values: [Double] = []
        values.reserveCapacity(min(plan.maxSamples, 1 << 20))
        let start = MonotonicClock.seconds()
        while true {
            values.append(try sample())
            let elapsed = MonotonicClock.seconds() - start
            if values.count >= plan.maxSamples { break }
            if values.count >= plan.minSamples && elapsed >= plan.minSeconds { break }
            if values.count >= 3 && elapsed >= plan.maxSeconds { break }
        }
        return Samples(values)
    }
}
