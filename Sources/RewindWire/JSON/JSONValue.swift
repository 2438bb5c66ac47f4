/// A JSON document or a part of one, as a plain value.
///
/// - Integers and floating-point numbers are told apart: a number written without a fraction or an exponent
///   that fits in `Int64` is `.int` (exact); every other number is `.double`. `-0` is `.double(-0.0)`.
///   Integer literals outside the `Int64` range parse as the nearest `.double` (the only place where the
///   parser rounds; it is documented here because it is a loss of precision).
/// - Objects keep their keys in document order (see ``JSONObject``).
/// - Equality is JSON equality with exact number kinds: objects are equal when they hold the same key/value
///   set in any order, arrays when they hold equal elements in the same order, and `.int(1)` is **not** equal
///   to `.double(1.0)` (so that a diff never hides a change of kind). The JSON Patch `test` operation uses
///   the numeric comparison RFC 6902 asks for instead (see ``JSONValue/isNumericallyEqual(to:)``).
///
/// Threading: a value type; safe to share and send across threads and actors.
public enum JSONValue: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written as an integer that fits in `Int64`.
    case int(Int64)
    /// Any other number. Non-finite values cannot be written as JSON; the serializer writes them as `null`.
    case double(Double)
    /// A string (always valid Unicode).
    case string(String)
    /// An ordered list of values.
    case array([JSONValue])
    /// An object with ordered keys.
    case object(JSONObject)
}

// MARK: - Inspecting values

extension JSONValue {
    /// The name of this value's JSON type: `null`, `boolean`, `number`, `string`, `array` or `object`.
    /// Used in error messages. Threading: pure.
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .int, .double: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// ``kindName`` with its indefinite article, as a sentence says it: `null`, `a boolean`, `a number`, `a string`,
    /// `an array`, `an object` ("not an object", never "not a object"). Threading: pure.
    public var kindNameWithArticle: String {
        switch self {
        case .null: return "null"
        case .array, .object: return "an \(kindName)"
        case .bool, .int, .double, .string: return "a \(kindName)"
        }
    }

    /// True for `.null`. Threading: pure.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The boolean, if this is `.bool`. Threading: pure.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The integer, if this is `.int`, or a `.double` whose value is an integer exactly representable in
    /// `Int64`. Threading: pure.
    public var int64Value: Int64? {
        switch self {
        case .int(let i): return i
        case .double(let d): return Int64(exactly: d)
        default: return nil
        }
    }

    /// The number as a `Double`, if this is `.int` or `.double`. Threading: pure.
    public var doubleValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    /// The string, if this is `.string`. Threading: pure.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The elements, if this is `.array`. Threading: pure.
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The object, if this is `.object`. Threading: pure.
    public var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// The member named `key` when this is an object that has it; `nil` otherwise. Threading: pure.
    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    /// The element at `index` when this is an array and the index is in range; `nil` otherwise.
    /// Threading: pure.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let a) = self, index >= 0, index < a.count { return a[index] }
        return nil
    }

    /// JSON equality as RFC 6902 §4.6 (`test`) defines it: like `==`, except that numbers compare by
    /// numeric value (`1` equals `1.0`). Threading: pure.
    public func isNumericallyEqual(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)):
            guard let exact = Int64(exactly: b) else { return false }
            return exact == a
        case (.array(let a), .array(let b)):
            guard a.count == b.count else { return false }
            for i in a.indices where !a[i].isNumericallyEqual(to: b[i]) { return false }
            return true
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            for (key, value) in a {
                guard let other = b[key], value.isNumericallyEqual(to: other) else { return false }
            }
            return true
        default:
            return self == other
        }
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral {
    /// `nil` is `.null`.
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    /// A boolean literal is `.bool`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// An integer literal is `.int`.
    public init(integerLiteral value: Int64) { self = .int(value) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    /// A floating-point literal is `.double`.
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// A string literal is `.string`.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    /// An array literal is `.array`.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// A dictionary literal is `.object`, keeping the literal's key order (a repeated key: the last wins).
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text of this value.
    public var description: String { serialized() }
}
