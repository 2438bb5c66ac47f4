import Foundation

/// A measured figure with its unit, formatted for the report.
///
/// Threading: a plain value; `Sendable`.
package enum Quantity: Sendable, Hashable, CustomStringConvertible {
    /// A duration in nanoseconds.
    case nanoseconds(Double)
    /// A size in bytes.
    case bytes(Double)
    /// A rate: so many `unit` per second (`unit` is e.g. "events/s").
    case rate(Double, unit: String)
    /// A dimensionless multiple (a speed-up, a ratio between two measurements).
    case factor(Double)
    /// Anything else, already written out.
    case text(String)

    /// The number targets are checked against (nanoseconds, bytes, per second, or the factor); nil for text.
    package var number: Double? {
        switch self {
        case .nanoseconds(let value), .bytes(let value), .rate(let value, _), .factor(let value): return value
        case .text: return nil
        }
    }

    /// The figure as the report prints it: `0.31 µs`, `4.87 ms`, `183 B`, `145.6 MB`, `312,000 events/s`, `7.2×`.
    package var description: String {
        switch self {
        case .nanoseconds(let value): return Quantity.duration(value)
        case .bytes(let value): return Quantity.size(value)
        case .rate(let value, let unit): return "\(Quantity.grouped(value)) \(unit)"
        case .factor(let value): return Quantity.multiple(value)
        case .text(let text): return text
        }
    }

    /// `value` nanoseconds with three significant digits in the largest fitting unit (ns below 100 ns).
    package static func duration(_ value: Double) -> String {
        guard value.isFinite else { return "n/a" }
        let magnitude = abs(value)
        if magnitude < 100 { return "\(significant(value, 3)) ns" }
        if magnitude < 1_000_000 { return "\(significant(value / 1_000, 3)) µs" }
        if magnitude < 1_000_000_000 { return "\(significant(value / 1_000_000, 3)) ms" }
        return "\(significant(value / 1_000_000_000, 3)) s"
    }

    /// `value` bytes: exact below 10,000 (`183 B`), else kB/MB/GB of 1000 (`145.6 MB`).
    package static func size(_ value: Double) -> String {
        guard value.isFinite else { return "n/a" }
        if abs(value) < 10_000 { return "\(grouped(value)) B" }
        if abs(value) < 1_000_000 { return String(format: "%.1f kB", value / 1_000) }
        if abs(value) < 1_000_000_000 { return String(format: "%.1f MB", value / 1_000_000) }
        return String(format: "%.2f GB", value / 1_000_000_000)
    }

    /// A multiple: `7.2×`, `0.52×`, `15,234×`.
    package static func multiple(_ value: Double) -> String {
        guard value.isFinite else { return "n/a" }
        if abs(value) >= 100 { return "\(grouped(value))×" }
        return "\(significant(value, 2 + (abs(value) >= 10 ? 1 : 0)))×"
    }

    /// An integer with thousands separators: `1,000,000`.
    package static func grouped(_ value: Double) -> String {
        guard value.isFinite else { return "n/a" }
        let rounded = Int64(value.rounded())
        let digits = String(abs(rounded))
        var out = ""
        for (offset, character) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return rounded < 0 ? "-" + out : out
    }

    /// `value` with `digits` significant digits, without exponent (`0.0312`, `4.87`, `312`).
    package static func significant(_ value: Double, _ digits: Int) -> String {
        guard value != 0, value.isFinite else { return value.isFinite ? "0" : "n/a" }
        let magnitude = Int(floor(log10(abs(value))))
        let decimals = max(0, digits - 1 - magnitude)
        return String(format: "%.\(decimals)f", value)
    }
}
