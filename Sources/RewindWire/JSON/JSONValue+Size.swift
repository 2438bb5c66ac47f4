extension JSONValue {
    /// About how many bytes this value takes as compact JSON, counting at most up to `limit`: once the count
    /// passes `limit` the walk stops and a number greater than `limit` is returned. So the cost is bounded by
    /// the limit, not by the value: a document that shares one subtree a million times (as a JSON Patch `copy`
    /// makes) is not walked a million times.
    ///
    /// The count is exact for `null`, booleans, integers, containers and keys, and for strings without
    /// characters that need escaping; a string with escapes and a floating-point number count at least one byte
    /// less than they are written. It is the measure of ``JSONPatch/apply(to:size:maxSize:)``.
    ///
    /// Threading: pure.
    public func compactSize(limit: Int = .max) -> Int {
        var remaining = limit
        return JSONValue.measure(self, &remaining) ? limit - remaining : limit &+ 1
    }

    /// Subtracts the size of `value` from `remaining`; false (and stops) once it goes below zero.
    private static func measure(_ value: JSONValue, _ remaining: inout Int) -> Bool {
        switch value {
        case .null: remaining -= 4
        case .bool(let b): remaining -= b ? 4 : 5
        case .int(let i): remaining -= digitCount(i)
        case .double: remaining -= 3
        case .string(let s): remaining -= s.utf8.count + 2
        case .array(let elements):
            remaining -= 2 + max(0, elements.count - 1)
            guard remaining >= 0 else { return false }
            for element in elements where !measure(element, &remaining) { return false }
        case .object(let object):
            remaining -= 2 + max(0, object.count - 1)
            guard remaining >= 0 else { return false }
            for (key, element) in object {
                remaining -= key.utf8.count + 3
                guard remaining >= 0, measure(element, &remaining) else { return false }
            }
        }
        return remaining >= 0
    }

    private static func digitCount(_ value: Int64) -> Int {
        var count = value < 0 ? 2 : 1
        var rest = value.magnitude
        while rest >= 10 {
            rest /= 10
            count += 1
        }
        return count
    }
}
