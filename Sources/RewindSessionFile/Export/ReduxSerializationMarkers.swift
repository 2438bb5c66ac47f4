import RewindWire

/// The markers Redux DevTools' serializer (jsan) leaves in values JSON cannot hold: `{"$jsan": …}` (a date, a
/// regular expression, `undefined`, a reference to a value seen before…) and `{"__serializedType__": …}` (an
/// Immutable collection, a `Map`, a `Set`…). Rewind keeps such values as they are, as plain JSON; an import counts
/// them so that it can say so (docs/SESSION-FORMAT.md, "Redux DevTools format").
/// Threading: pure functions.
package enum ReduxSerializationMarkers {
    /// The keys that mark a serialized value.
    package static let keys: Set<String> = ["$jsan", "__serializedType__"]

    /// How many objects inside `value` (itself included) carry one of ``keys``. Iterative: any nesting is safe.
    package static func count(in value: JSONValue) -> Int {
        var count = 0
        var pending = [value]
        while let next = pending.popLast() {
            switch next {
            case .array(let elements):
                pending.append(contentsOf: elements)
            case .object(let object):
                if object.keys.contains(where: keys.contains) { count += 1 }
                pending.append(contentsOf: object.values)
            default:
                continue
            }
        }
        return count
    }

    /// The import's warning for `count` marked values; nil for none.
    package static func warning(_ count: Int) -> String? {
        guard count > 0 else { return nil }
        return "\(count) value\(count == 1 ? " carries" : "s carry") a Redux DevTools serialization marker "
            + "(\"$jsan\" or \"__serializedType__\": a date, Map, Set, Immutable collection, reference… that JSON "
            + "cannot hold); \(count == 1 ? "it is kept as it is" : "they are kept as they are"), as plain JSON, not "
            + "decoded"
    }
}
