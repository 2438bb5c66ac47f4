import Foundation

/// A figure's target from the issue: an upper or a lower bound, in the unit of the figure's ``Quantity/number``.
///
/// Threading: a plain value; `Sendable`.
public struct Target: Sendable, Hashable, CustomStringConvertible {
    /// Which side of the bound a figure must be on.
    public enum Bound: Sendable, Hashable {
        /// The figure must be at most the threshold (times, sizes).
        case atMost
        /// The figure must be at least the threshold (rates, speed-ups).
        case atLeast
    }

    /// Which side.
    public let bound: Bound
    /// The threshold, in the figure's unit.
    public let threshold: Double
    /// How the report writes it (`≤ 5 ms`).
    public let text: String

    /// A target; `text` is how the issue states it.
    public init(_ bound: Bound, _ threshold: Double, _ text: String) {
        self.bound = bound
        self.threshold = threshold
        self.text = text
    }

    /// At most `nanoseconds`, written like the issue (`≤ 5 ms`).
    public static func atMost(nanoseconds: Double) -> Target {
        let text = Quantity.duration(nanoseconds)
            .replacingOccurrences(of: #"\.0+ "#, with: " ", options: .regularExpression)
        return Target(.atMost, nanoseconds, "≤ " + text)
    }

    /// True when `value` satisfies the target.
    public func isMet(by value: Double) -> Bool {
        switch bound {
        case .atMost: return value <= threshold
        case .atLeast: return value >= threshold
        }
    }

    /// The text.
    public var description: String { text }
}
