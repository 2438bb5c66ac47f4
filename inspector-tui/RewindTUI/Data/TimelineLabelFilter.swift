import Foundation

/// The `/` filter: a regular expression matched against event labels (anywhere in the label).
///
/// Smart case, as in vim and ripgrep: a pattern without capital letters ignores case, one with a capital letter
/// respects it. Threading: immutable after creation; `NSRegularExpression` is documented thread-safe for
/// matching, so a filter may be shared across threads.
package struct TimelineLabelFilter: @unchecked Sendable, Hashable {  // only immutable state; NSRegularExpression matching is thread-safe
    /// The pattern as the user typed it.
    package let pattern: String
    private let expression: NSRegularExpression

    /// Compiles `pattern`.
    /// - Throws: `TimelineLabelFilter.InvalidPattern` naming the pattern and the reason, for a bad regex.
    package init(pattern: String) throws(InvalidPattern) {
        self.pattern = pattern
        let ignoresCase = !pattern.contains(where: \.isUppercase)
        do {
            expression = try NSRegularExpression(pattern: pattern, options: ignoresCase ? [.caseInsensitive] : [])
        } catch {
            throw InvalidPattern(pattern: pattern)
        }
    }

    /// Whether `label` contains a match.
    package func matches(_ label: String) -> Bool {
        let range = NSRange(label.startIndex..<label.endIndex, in: label)
        return expression.firstMatch(in: label, options: [], range: range) != nil
    }

    /// Whether the row's label (or its kind's name, when it has none) matches.
    package func matches(_ event: TimelineEvent) -> Bool {
        matches(event.displayLabel)
    }

    /// Filters are equal when their patterns are.
    package static func == (lhs: TimelineLabelFilter, rhs: TimelineLabelFilter) -> Bool {
        lhs.pattern == rhs.pattern
    }

    /// Hashes the pattern.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(pattern)
    }

    /// A pattern that is not a valid regular expression.
    package struct InvalidPattern: Error, Sendable, Hashable, CustomStringConvertible {
        /// The pattern as typed.
        package let pattern: String
        /// "not a valid regular expression: …".
        package var description: String { "not a valid regular expression: \(pattern)" }
    }
}
