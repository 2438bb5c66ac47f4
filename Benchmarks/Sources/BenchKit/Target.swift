import Foundation

/// A figure's target from the issue: an upper or a lower bound, in the unit of the figure's ``Quantity/number``.
///
/// Threading: a plain value; `Sendable`.
package struct Target: Sendable, Hashable, CustomStringConvertible {
    /// Which side of the bound a figure must be on.
    package enum Bound: Sendable, Hashable {
        /// The figure must be at most the threshold (times, sizes).
        case atMost
        /// The figure must be at least the threshold (rates, speed-ups).
        case atLeast
    }

    /// Which side.
    package let bound: Bound
    /// The threshold, in the figure's unit.
    package let threshold: Double
    /// How the report writes it (`≤ 5 ms`).
    package let text: String

    /// A target; `text` is how the issue states it.
    package init(_ bound: Bound, _ threshold: Double, _ text: String) {
        self.bound = bound
        self.threshold = threshold
        self.text = text
    }

    /// At most `nanoseconds`, written like the issue (`≤ 5 ms`).
    package static func atMost(nanoseconds: Double) -> Target {
        let text = Quantity.duration(nanoseconds)
            .replacingOccurrences(of: #"\.0+ "#, with: " ", options: .regularExpression)
        return Target(.atMost, nanoseconds, "≤ " + text)
    }

    /// True when `value` satisfies the target.
    package func isMet(by value: Double) -> Bool {
        switch bound {
        case .atMost: return value <= threshold
        case .atLeast: return value >= threshold
        }
    }

    /// The text.
    package var description: String { text }
}
