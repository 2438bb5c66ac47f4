import Foundation
import RewindWire

/// What the `/` prompt searches for: a label, a text in the action, or a condition on the state.
///
/// The grammar (also in the help overlay and the README's timeline section):
/// ```
/// query     := label-regex                      rows whose label matches (smart case), as before
///            | "action:" text                   events whose action's JSON contains text (smart case)
///            | "state:" pointer op value        main-line events where the condition becomes true
/// pointer   := a JSON Pointer ("" the whole state); a token "*" stands for every member or element
/// op        := "==" | "!=" | "<" | "<=" | ">" | ">=" | "contains"
/// value     := a JSON value: null, true, 12, "milk", {"a":1}; a bare word is taken as a string
/// ```
/// `==` and `!=` compare JSON values (numbers by value); a path that does not exist counts as `null`. `<`, `<=`, `>`
/// and `>=` order two numbers by value, or two strings; between other values they never hold. `contains`
/// holds when a string anywhere inside the value contains the text (for a string value), or when the value or
/// anything inside it equals the value (for the others). With `*`, the condition holds when it holds for any of
/// the values the pointer reaches. A state search finds the events *after which* the condition holds and did not
/// before, so `n` goes from one change to the next instead of through every row of a long stretch.
///
/// Threading: an immutable value; `Sendable`.
package enum TimelineSearchQuery: Sendable, Hashable, CustomStringConvertible {
    /// Rows whose shown label (or kind name) matches the regular expression.
    case label(TimelineLabelFilter)
    /// Events whose action JSON contains `text`; ignoring ASCII case when `text` has no capital letter.
    case action(text: String)
    /// Main-line events after which `condition` holds and did not before.
    case state(StateCondition)

    /// Parses what was typed into the `/` prompt.
    /// - Throws: `Invalid` saying what is wrong (a bad regex, pointer, operator or value).
    package init(parsing text: String) throws(Invalid) {
        if let rest = Self.dropPrefix(["action:", "a:"], from: text) {
            let needle = rest.trimmingCharacters(in: .whitespaces)
            guard !needle.isEmpty else { throw Invalid(description: "action: needs a text to look for") }
            self = .action(text: needle)
        } else if let rest = Self.dropPrefix(["state:", "s:"], from: text) {
            self = .state(try StateCondition(parsing: rest))
        } else {
            do {
                self = .label(try TimelineLabelFilter(pattern: text))
            } catch {
                throw Invalid(description: error.description)
            }
        }
    }

    /// The query as typed back (canonical form).
    package var description: String {
        switch self {
        case .label(let filter): return "/\(filter.pattern)/"
        case .action(let text): return "action:\(text)"
        case .state(let condition): return "state:\(condition)"
        }
    }

    /// What matches, for "no event … matches" messages.
    package var noMatchMessage: String {
        switch self {
        case .label(let filter): return "no event label matches /\(filter.pattern)/"
        case .action(let text): return "no action contains \(text)"
        case .state(let condition): return "the state never becomes \(condition) (main line)"
        }
    }

    /// The label filter, for a label query (the timeline highlights its matches).
    package var labelFilter: TimelineLabelFilter? {
        if case .label(let filter) = self { return filter }
        return nil
    }

    private static func dropPrefix(_ prefixes: [String], from text: String) -> Substring? {
        let trimmed = text.drop { $0 == " " }
        for prefix in prefixes where trimmed.hasPrefix(prefix) {
            return trimmed.dropFirst(prefix.count)
        }
        return nil
    }

    /// A query that cannot be run, and why.
    package struct Invalid: Error, Sendable, Hashable, CustomStringConvertible {
        /// The reason, for the prompt.
        package let description: String
    }

    /// `pointer op value` of a `state:` query.
    package struct StateCondition: Sendable, Hashable, CustomStringConvertible {
        /// The comparison.
        package enum Operator: String, Sendable, Hashable, CaseIterable {
            /// Equal JSON values.
            case equals = "=="
            /// Different JSON values.
            case notEquals = "!="
            /// A number less than the number, or a string before the string.
            case less = "<"
            /// Less, or equal.
            case lessOrEqual = "<="
            /// A number greater than the number, or a string after the string.
            case greater = ">"
            /// Greater, or equal.
            case greaterOrEqual = ">="
            /// A string inside contains the text, or a value inside equals the value.
            case contains
        }

        /// The pointer's tokens; "*" stands for every member or element.
        package let tokens: [String]
        /// The comparison.
        package let op: Operator
        /// The value compared with.
        package let value: JSONValue

        /// Parses `pointer op value`.
        package init(parsing text: Substring) throws(Invalid) {
            let trimmed = " " + text.trimmingCharacters(in: .whitespaces)  // " contains" may open it
            let usage = "state: needs a pointer, an operator and a value, e.g. state:/user/name == null"
            let found = Operator.allCases.compactMap { op -> (Operator, Range<String.Index>)? in
                let spelled = op == .contains ? " contains " : op.rawValue
                return trimmed.range(of: spelled).map { (op, $0) }
            }.min { a, b in
                // The first operator in the text; at one place, the longest ("<=" rather than "<").
                a.1.lowerBound != b.1.lowerBound ? a.1.lowerBound < b.1.lowerBound : a.1.upperBound > b.1.upperBound
            }
            guard let (op, range) = found else { throw Invalid(description: usage) }
            let pointerText = trimmed[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
            let valueText = trimmed[range.upperBound...].trimmingCharacters(in: .whitespaces)
            guard !valueText.isEmpty else { throw Invalid(description: usage) }
            do {
                tokens = try JSONPointer(pointerText).tokens
            } catch {
                throw Invalid(description: "\(error) (a pointer starts with /, e.g. /items/*/title)")
            }
            self.op = op
            if let parsed = try? JSONValue(parsing: valueText) {
                value = parsed
            } else if valueText.allSatisfy({ $0.isLetter || $0.isNumber || "-_./:@".contains($0) }) {
                value = .string(valueText)  // a bare word
            } else {
                throw Invalid(description: "not a JSON value: \(valueText) (strings go in double quotes)")
            }
        }

        /// `/path op value`.
        package var description: String {
            "\(JSONPointer(tokens: tokens)) \(op.rawValue) \(value.serialized())"
        }

        /// Whether the condition holds on `state`.
        package func holds(in state: JSONValue) -> Bool {
            var reached: [JSONValue] = []
            let exists = Self.collect(state, tokens[...], into: &reached)
            if !exists && !tokens.contains("*") { reached = [.null] }  // a missing member counts as null
            switch op {
            case .equals: return reached.contains { $0.isNumericallyEqual(to: value) }
            case .notEquals: return reached.contains { !$0.isNumericallyEqual(to: value) }
            case .contains: return reached.contains { Self.contains($0, value) }
            case .less: return reached.contains { Self.order($0, value).map { $0 < 0 } ?? false }
            case .lessOrEqual: return reached.contains { Self.order($0, value).map { $0 <= 0 } ?? false }
            case .greater: return reached.contains { Self.order($0, value).map { $0 > 0 } ?? false }
            case .greaterOrEqual: return reached.contains { Self.order($0, value).map { $0 >= 0 } ?? false }
            }
        }

        /// -1, 0 or 1 as `value` comes before, with or after `other`: two numbers by value, two strings by their
        /// characters; nil for any other pair.
        private static func order(_ value: JSONValue, _ other: JSONValue) -> Int? {
            switch (value, other) {
            case (.int(let a), .int(let b)): return a < b ? -1 : (a == b ? 0 : 1)
            case (.int, .double), (.double, .int), (.double, .double):
                guard let a = value.doubleValue, let b = other.doubleValue, !a.isNaN, !b.isNaN else { return nil }
                return a < b ? -1 : (a == b ? 0 : 1)
            case (.string(let a), .string(let b)): return a < b ? -1 : (a == b ? 0 : 1)
            default: return nil
            }
        }

        /// Appends the values `tokens` reach from `value`; false when a plain token does not exist.
        private static func collect(_ value: JSONValue, _ tokens: ArraySlice<String>, into result: inout [JSONValue]) -> Bool {
            guard let token = tokens.first else {
                result.append(value)
                return true
            }
            let rest = tokens.dropFirst()
            if token == "*" {
                switch value {
                case .array(let elements): for element in elements { _ = collect(element, rest, into: &result) }
                case .object(let object): for member in object.values { _ = collect(member, rest, into: &result) }
                default: break
                }
                return true
            }
            switch value {
            case .object(let object):
                guard let member = object[token] else { return false }
                return collect(member, rest, into: &result)
            case .array(let elements):
                guard let position = Int(token), elements.indices.contains(position) else { return false }
                return collect(elements[position], rest, into: &result)
            default:
                return false
            }
        }

        /// `contains`: see the type's grammar.
        private static func contains(_ value: JSONValue, _ needle: JSONValue) -> Bool {
            if case .string(let text) = needle {
                switch value {
                case .string(let string): return string.contains(text)
                case .array(let elements): return elements.contains { contains($0, needle) }
                case .object(let object): return object.values.contains { contains($0, needle) }
                default: return false
                }
            }
            if value.isNumericallyEqual(to: needle) { return true }
            switch value {
            case .array(let elements): return elements.contains { contains($0, needle) }
            case .object(let object): return object.values.contains { contains($0, needle) }
            default: return false
            }
        }
    }
}
