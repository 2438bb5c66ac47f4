import Foundation

/// Decodes `Decodable` values straight from a ``JSONValue`` tree, with no JSON text in between. The inverse
/// of ``JSONValueEncoder``:
/// - Integer types accept `.int` in range, and `.double` whose value is an exact integer in range
///   (`3.0` → `3`); anything else throws `DecodingError.typeMismatch` or `.dataCorrupted` (out of range).
/// - `Double`/`Float` accept `.double` and `.int`. `Bool` only `.bool`, `String` only `.string`.
/// - `Date` from a number of seconds since 1970; `Data` from a base64 string; `URL` from a string;
///   `Decimal` from a number; `JSONValue`/`JSONObject` as they are.
/// - A missing key throws `DecodingError.keyNotFound`; `decodeIfPresent` gives `nil` for a missing key or
///   `null`. Members the type does not know are ignored.
///
/// Threading: the decoder is an immutable value; each `decode` call uses its own state, so one decoder may
/// be used from several threads at once.
public struct JSONValueDecoder: Sendable {
    /// Passed to the values' `init(from:)` as `decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable]

    /// A decoder with no user info.
    public init() {
        userInfo = [:]
    }

    /// Decodes a `T` from `value`. Throws `DecodingError` when the shape does not match.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        let root = ValueDecoder(value: value, parent: nil, key: nil, userInfo: userInfo)
        return try root.unbox(value, as: T.self, key: nil)
    }
}

// MARK: - Implementation

/// The `Decoder` handed to `init(from:)`: one per decoded non-primitive value.
/// Not thread-safe: confined to the single `decode` call that created it.
final class ValueDecoder: Decoder {
    let value: JSONValue
    let parent: ValueDecoder?
    let key: (any CodingKey)?
    let sendableUserInfo: [CodingUserInfoKey: any Sendable]

    init(value: JSONValue, parent: ValueDecoder?, key: (any CodingKey)?, userInfo: [CodingUserInfoKey: any Sendable]) {
        self.value = value
        self.parent = parent
        self.key = key
        self.sendableUserInfo = userInfo
    }

    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var node: ValueDecoder? = self
        while let n = node {
            if let k = n.key { path.append(k) }
            node = n.parent
        }
        return path.reversed()
    }

    var userInfo: [CodingUserInfoKey: Any] { sendableUserInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else {
            throw mismatch([String: Any].self, value, nil, "expected an object")
        }
        return KeyedDecodingContainer(KeyedValueDecodingContainer<Key>(decoder: self, object: object))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let array) = value else {
            throw mismatch([Any].self, value, nil, "expected an array")
        }
        return UnkeyedValueDecodingContainer(decoder: self, array: array)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueDecodingContainerImpl(decoder: self)
    }

    func child(_ value: JSONValue, key: any CodingKey) -> ValueDecoder {
        ValueDecoder(value: value, parent: self, key: key, userInfo: sendableUserInfo)
    }

    // MARK: Errors

    func path(_ key: (any CodingKey)?) -> [any CodingKey] {
        var path = codingPath
        if let key { path.append(key) }
        return path
    }

    func mismatch(_ type: Any.Type, _ value: JSONValue, _ key: (any CodingKey)?, _ what: String) -> DecodingError {
        DecodingError.typeMismatch(type, DecodingError.Context(
            codingPath: path(key), debugDescription: "\(what), found \(value.kindName) \(abbreviated(value))"))
    }

    func corrupted(_ key: (any CodingKey)?, _ what: String) -> DecodingError {
        DecodingError.dataCorrupted(DecodingError.Context(codingPath: path(key), debugDescription: what))
    }

    private func abbreviated(_ value: JSONValue) -> String {
        let text = value.serialized()
        return text.count <= 60 ? text : String(text.prefix(57)) + "..."
    }

    // MARK: Unboxing primitives

    func unboxBool(_ v: JSONValue, _ key: (any CodingKey)?) throws -> Bool {
        guard case .bool(let b) = v else { throw mismatch(Bool.self, v, key, "expected a boolean") }
        return b
    }

    func unboxString(_ v: JSONValue, _ key: (any CodingKey)?) throws -> String {
        guard case .string(let s) = v else { throw mismatch(String.self, v, key, "expected a string") }
        return s
    }

    func unboxDouble(_ v: JSONValue, _ key: (any CodingKey)?) throws -> Double {
        switch v {
        case .double(let d): return d
        case .int(let i): return Double(i)
        default: throw mismatch(Double.self, v, key, "expected a number")
        }
    }

    func unboxFloat(_ v: JSONValue, _ key: (any CodingKey)?) throws -> Float {
        let d = try unboxDouble(v, key)
        let f = Float(d)
        guard f.isFinite || !d.isFinite else { throw corrupted(key, "\(d) does not fit in Float") }
        return f
    }

    @inline(__always)
    func unboxInteger<I: FixedWidthInteger>(_ v: JSONValue, _ type: I.Type, _ key: (any CodingKey)?) throws -> I {
        switch v {
        case .int(let i):
            if let exact = I(exactly: i) { return exact }
            throw corrupted(key, "\(i) does not fit in \(I.self)")
        case .double(let d):
            if let exact = I(exactly: d) { return exact }
            throw corrupted(key, "\(d) is not an integer that fits in \(I.self)")
        default:
            throw mismatch(I.self, v, key, "expected an integer")
        }
    }

    /// Decodes any value found under `key`: primitives and special types directly, everything else through
    /// a child decoder.
    func unbox<T: Decodable>(_ v: JSONValue, as type: T.Type, key: (any CodingKey)?) throws -> T {
        if let fast = try unboxFast(v, as: type, key: key) { return fast }
        let child = ValueDecoder(value: v, parent: self, key: key, userInfo: sendableUserInfo)
        return try T(from: child)
    }

    /// The decoded value for primitives and special types, `nil` for anything else.
    @inline(__always)
    func unboxFast<T: Decodable>(_ v: JSONValue, as type: T.Type, key: (any CodingKey)?) throws -> T? {
        if T.self == String.self { return (try unboxString(v, key) as! T) }
        if T.self == Int.self { return (try unboxInteger(v, Int.self, key) as! T) }
        if T.self == Double.self { return (try unboxDouble(v, key) as! T) }
        if T.self == Bool.self { return (try unboxBool(v, key) as! T) }
        if T.self == JSONValue.self { return (v as! T) }
        if T.self == Date.self { return (Date(timeIntervalSince1970: try unboxDouble(v, key)) as! T) }
        if T.self == Int64.self { return (try unboxInteger(v, Int64.self, key) as! T) }
        if T.self == Int32.self { return (try unboxInteger(v, Int32.self, key) as! T) }
        if T.self == UInt64.self { return (try unboxInteger(v, UInt64.self, key) as! T) }
        if T.self == UInt.self { return (try unboxInteger(v, UInt.self, key) as! T) }
        if T.self == Float.self { return (try unboxFloat(v, key) as! T) }
        if T.self == Data.self {
            let s = try unboxString(v, key)
            guard let data = Data(base64Encoded: s) else { throw corrupted(key, "not valid base64") }
            return (data as! T)
        }
        if T.self == URL.self {
            let s = try unboxString(v, key)
            guard let url = URL(string: s) else { throw corrupted(key, "not a valid URL: \(s)") }
            return (url as! T)
        }
        if T.self == JSONObject.self {
            guard case .object(let o) = v else { throw mismatch(JSONObject.self, v, key, "expected an object") }
            return (o as! T)
        }
        if T.self == Decimal.self {
            switch v {
            case .int(let i): return (Decimal(i) as! T)
            case .double(let d): return ((Decimal(string: d.description) ?? Decimal(d)) as! T)
            default: throw mismatch(Decimal.self, v, key, "expected a number")
            }
        }
        return nil
    }
}

/// Keyed container over an object.
/// Not thread-safe: confined to the single `decode` call that created it.
struct KeyedValueDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: ValueDecoder
    let object: JSONObject

    var codingPath: [any CodingKey] { decoder.codingPath }

    var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { object.index(forKey: key.stringValue) != nil }

    @inline(__always)
    private func value(_ key: Key) throws -> JSONValue {
        guard let v = object[key.stringValue] else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(
                codingPath: decoder.codingPath, debugDescription: "no value for key \"\(key.stringValue)\""))
        }
        return v
    }

    func decodeNil(forKey key: Key) throws -> Bool { try value(key).isNull }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder.unboxBool(try value(key), key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder.unboxString(try value(key), key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder.unboxDouble(try value(key), key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder.unboxFloat(try value(key), key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder.unboxInteger(try value(key), type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder.unboxInteger(try value(key), type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder.unboxInteger(try value(key), type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder.unboxInteger(try value(key), type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder.unboxInteger(try value(key), type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder.unboxInteger(try value(key), type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder.unboxInteger(try value(key), type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder.unboxInteger(try value(key), type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder.unboxInteger(try value(key), type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder.unboxInteger(try value(key), type, key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.unbox(try value(key), as: type, key: key)
    }

    // One lookup instead of the default contains + decodeNil + decode.
    private func present(_ key: Key) -> JSONValue? {
        guard let v = object[key.stringValue], !v.isNull else { return nil }
        return v
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try present(key).map { try decoder.unboxBool($0, key) }
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try present(key).map { try decoder.unboxString($0, key) }
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try present(key).map { try decoder.unboxDouble($0, key) }
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try present(key).map { try decoder.unboxInteger($0, type, key) }
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let v = present(key) else { return nil }
        return try decoder.unbox(v, as: type, key: key)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder.child(try value(key), key: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.child(try value(key), key: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        decoder.child(object["super"] ?? .null, key: SuperCodingKey())
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder.child(object[key.stringValue] ?? .null, key: key)
    }
}

/// Unkeyed container over an array.
/// Not thread-safe: confined to the single `decode` call that created it.
struct UnkeyedValueDecodingContainer: UnkeyedDecodingContainer {
    let decoder: ValueDecoder
    let array: [JSONValue]
    private(set) var currentIndex = 0

    init(decoder: ValueDecoder, array: [JSONValue]) {
        self.decoder = decoder
        self.array = array
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { array.count }
    var isAtEnd: Bool { currentIndex >= array.count }

    private mutating func next<T>(_ type: T.Type) throws -> (JSONValue, IndexCodingKey) {
        guard currentIndex < array.count else {
            throw DecodingError.valueNotFound(type, DecodingError.Context(
                codingPath: decoder.path(IndexCodingKey(currentIndex)), debugDescription: "unkeyed container is at its end"))
        }
        let v = array[currentIndex]
        let key = IndexCodingKey(currentIndex)
        currentIndex += 1
        return (v, key)
    }

    mutating func decodeNil() throws -> Bool {
        guard currentIndex < array.count else {
            throw DecodingError.valueNotFound(Any?.self, DecodingError.Context(
                codingPath: decoder.path(IndexCodingKey(currentIndex)), debugDescription: "unkeyed container is at its end"))
        }
        if array[currentIndex].isNull {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { let (v, k) = try next(type); return try decoder.unboxBool(v, k) }
    mutating func decode(_ type: String.Type) throws -> String { let (v, k) = try next(type); return try decoder.unboxString(v, k) }
    mutating func decode(_ type: Double.Type) throws -> Double { let (v, k) = try next(type); return try decoder.unboxDouble(v, k) }
    mutating func decode(_ type: Float.Type) throws -> Float { let (v, k) = try next(type); return try decoder.unboxFloat(v, k) }
    mutating func decode(_ type: Int.Type) throws -> Int { let (v, k) = try next(type); return try decoder.unboxInteger(v, type, k) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { let (v, k) = try next(type); return try decoder.unboxInteger(v, type, k) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { let (v, k) = try next(type); return try decoder.unboxInteger(v, type, k) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { let (v, k) = try next(type); return try decoder.unboxInteger(v, type, k) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { let (v, k) = try next(type); return try decoder.unboxInteger(v, type, k) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { let (v, k) = try next(type); return try decoder.unboxInteger(v, type, k) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { let (v, k) = try next(type); return try decoder.unboxInteger(v, type, k) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { let (v, k) = try next(type); return try decoder.unboxInteger(v, type, k) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { let (v, k) = try next(type); return try decoder.unboxInteger(v, type, k) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { let (v, k) = try next(type); return try decoder.unboxInteger(v, type, k) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (v, k) = try next(type)
        return try decoder.unbox(v, as: type, key: k)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (v, k) = try next(JSONObject.self)
        return try decoder.child(v, key: k).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (v, k) = try next([JSONValue].self)
        return try decoder.child(v, key: k).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (v, k) = try next(JSONValue.self)
        return decoder.child(v, key: k)
    }
}

/// Single-value container over the decoder's value.
/// Not thread-safe: confined to the single `decode` call that created it.
struct SingleValueDecodingContainerImpl: SingleValueDecodingContainer {
    let decoder: ValueDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }
    private var v: JSONValue { decoder.value }

    func decodeNil() -> Bool { v.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.unboxBool(v, nil) }
    func decode(_ type: String.Type) throws -> String { try decoder.unboxString(v, nil) }
    func decode(_ type: Double.Type) throws -> Double { try decoder.unboxDouble(v, nil) }
    func decode(_ type: Float.Type) throws -> Float { try decoder.unboxFloat(v, nil) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.unboxInteger(v, type, nil) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.unboxInteger(v, type, nil) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.unboxInteger(v, type, nil) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.unboxInteger(v, type, nil) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.unboxInteger(v, type, nil) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.unboxInteger(v, type, nil) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.unboxInteger(v, type, nil) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.unboxInteger(v, type, nil) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.unboxInteger(v, type, nil) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.unboxInteger(v, type, nil) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // The value stands at this decoder's own position: decode it from this same decoder.
        if let fast = try decoder.unboxFast(v, as: type, key: nil) { return fast }
        return try T(from: decoder)
    }
}
