import RewindWire

/// Replaces secrets in encoded states and actions before anything leaves the process, and puts the app's own
/// values back into a state pushed in from the daemon.
///
/// A path is a dot-separated list of segments matched against the JSON encoding:
/// - a plain segment matches that object key (`session.password`);
/// - `*` matches any one object key or array element (`users.*.token`);
/// - `**` matches any number of levels, including none (`**.password` redacts every `password` key anywhere).
///
/// Matched values are replaced by the string ``Redactor/placeholder`` whatever their type.
/// Threading: immutable; use from any thread.
public struct Redactor: Sendable {
    /// What a redacted value reads as on the wire, in session files and exports.
    public static let placeholder: JSONValue = .string("<redacted>")

    /// One parsed path.
    struct Pattern: Sendable, Hashable {
        enum Segment: Sendable, Hashable { case key(String), any, anyDepth }
        let segments: [Segment]

        init(_ path: String) {
            segments = path.split(separator: ".", omittingEmptySubsequences: true).map { part in
                switch part {
                case "*": return .any
                case "**": return .anyDepth
                default: return .key(String(part))
                }
            }
        }
    }

    let patterns: [Pattern]

    /// Creates a redactor for the given dotted paths (e.g. `["session.password", "**.token"]`).
    public init(paths: [String]) {
        patterns = paths.map(Pattern.init).filter { !$0.segments.isEmpty }
    }

    /// True when no path is configured (redaction is then free).
    public var isEmpty: Bool { patterns.isEmpty }

    /// Returns `value` with every matched value replaced by ``placeholder``.
    public func redact(_ value: JSONValue) -> JSONValue {
        guard !patterns.isEmpty else { return value }
        var result = value
        for pattern in patterns {
            result = Self.rewrite(result, pattern.segments[...]) { _ in Self.placeholder }
        }
        return result
    }

    /// Returns `incoming` (a state pushed in by the daemon) with the values at every redacted path taken from
    /// `own` (the app's current state), so a jump never overwrites a secret with the placeholder.
    public func restore(_ incoming: JSONValue, from own: JSONValue) -> JSONValue {
        guard !patterns.isEmpty else { return incoming }
        var result = incoming
        for pattern in patterns {
            result = Self.merge(result, own, pattern.segments[...])
        }
        return result
    }

    private static func rewrite(_ value: JSONValue, _ path: ArraySlice<Pattern.Segment>,
                                _ replace: (JSONValue) -> JSONValue) -> JSONValue {
        guard let head = path.first else { return replace(value) }
        let rest = path.dropFirst()
        switch (head, value) {
        case (.key(let key), .object(var object)):
            if let child = object[key] { object[key] = rewrite(child, rest, replace) }
            return .object(object)
        case (.key(let key), .array(var array)):
            if let index = Int(key), array.indices.contains(index) {
                array[index] = rewrite(array[index], rest, replace)
            }
            return .array(array)
        case (.any, .object(let object)):
            var copy = JSONObject()
            for (key, child) in object { copy[key] = rewrite(child, rest, replace) }
            return .object(copy)
        case (.any, .array(let array)):
            return .array(array.map { rewrite($0, rest, replace) })
        case (.anyDepth, _):
            // `**` matches here (zero levels) or one level deeper and stays active.
            var value = rewrite(value, rest, replace)
            if case .object(let object) = value {
                var copy = JSONObject()
                for (key, child) in object { copy[key] = rewrite(child, path, replace) }
                value = .object(copy)
            } else if case .array(let array) = value {
                value = .array(array.map { rewrite($0, path, replace) })
            }
            return value
        default:
            return value
        }
    }

    private static func merge(_ incoming: JSONValue, _ own: JSONValue?,
                              _ path: ArraySlice<Pattern.Segment>) -> JSONValue {
        guard let head = path.first else { return own ?? incoming }
        let rest = path.dropFirst()
        switch (head, incoming) {
        case (.key(let key), .object(var object)):
            if let child = object[key] { object[key] = merge(child, own?.child(key), rest) }
            return .object(object)
        case (.key(let key), .array(var array)):
            if let index = Int(key), array.indices.contains(index) {
                array[index] = merge(array[index], own?.child(key), rest)
            }
            return .array(array)
        case (.any, .object(let object)):
            var copy = JSONObject()
            for (key, child) in object { copy[key] = merge(child, own?.child(key), rest) }
            return .object(copy)
        case (.any, .array(let array)):
            return .array(array.enumerated().map { merge($0.element, own?.child(String($0.offset)), rest) })
        case (.anyDepth, _):
            var value = merge(incoming, own, rest)
            if case .object(let object) = value {
                var copy = JSONObject()
                for (key, child) in object { copy[key] = merge(child, own?.child(key), path) }
                value = .object(copy)
            } else if case .array(let array) = value {
                value = .array(array.enumerated().map { merge($0.element, own?.child(String($0.offset)), path) })
            }
            return value
        default:
            return incoming
        }
    }
}

extension JSONValue {
    /// The member named `key` of an object, or the element at index `key` of an array.
    fileprivate func child(_ key: String) -> JSONValue? {
        switch self {
        case .object(let object): return object[key]
        case .array(let array):
            guard let index = Int(key), array.indices.contains(index) else { return nil }
            return array[index]
        default: return nil
        }
    }
}
