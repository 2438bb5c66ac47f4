/// A set of measurements of one quantity (durations in nanoseconds, sizes in bytes…), with the order statistics
/// the report uses.
///
/// Percentiles use the nearest-rank method on the sorted values: `percentile(0.99)` of 1,000 values is the
/// 990th smallest, so it is a value that was actually measured.
///
/// Threading: a plain value; `Sendable`.
package struct Samples: Sendable, Hashable {
    /// The values, ascending.
    package let sorted: [Double]

    /// Wraps `values` (any order).
    package init(_ values: [Double]) {
        sorted = values.sorted()
    }

    /// How many values there are.
    package var count: Int { sorted.count }

    /// True when nothing was measured.
    package var isEmpty: Bool { sorted.isEmpty }

    /// The nearest-rank percentile `p` (0…1): the smallest value with at least `p` of the values at or below it.
    /// `percentile(0)` is the minimum, `percentile(1)` the maximum. NaN when empty.
    package func percentile(_ p: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let clamped = min(max(p, 0), 1)
        let rank = Int((clamped * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// The median (the 50th percentile, nearest rank).
    package var median: Double { percentile(0.5) }

    /// The 99th percentile (nearest rank).
    package var p99: Double { percentile(0.99) }

    /// The smallest value (NaN when empty).
    package var minimum: Double { sorted.first ?? .nan }

    /// The largest value (NaN when empty).
    package var maximum: Double { sorted.last ?? .nan }

    /// The arithmetic mean (NaN when empty).
    package var mean: Double {
        sorted.isEmpty ? .nan : sorted.reduce(0, +) / Double(sorted.count)
    }

    /// Every value minus `offset` (for instance the cost of reading the clock), never below zero.
    package func subtracting(_ offset: Double) -> Samples {
        Samples(sorted.map { max(0, $0 - offset) })
    }
}
