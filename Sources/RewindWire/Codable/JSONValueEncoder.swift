import Foundation

/// Encodes `Encodable` values straight into a ``JSONValue`` tree, with no JSON text in between.
///
/// The result is what `JSONEncoder` would produce, parsed back, with these rules:
/// - `Int`, `Int8…Int64`, `UInt8…UInt32` → `.int`. `UInt`/`UInt64` → `.int` when ≤ `Int64.max`; larger values
///   **throw** `EncodingError.invalidValue` (no silent precision loss).
/// - `Double` → `.double`; `Float` → `.double` of its shortest decimal form (`Float(0.1)` → `0.1`).
///   Non-finite values (NaN, ±infinity) throw `EncodingError.invalidValue`.
/// - `Decimal` → `.int` when integral and within `Int64`, else `.double`.
/// - `Date` → seconds since 1970-01-01T00:00:00Z as `.double`. `Data` → base64 `.string`. `URL` → its
///   absolute string.
/// - `JSONValue` and `JSONObject` are inserted as they are.
/// - Structs and classes → `.object` with keys in encoding order (the declaration order for synthesized
///   conformances); enums with associated values → Swift's synthesized keyed form
///   (`{"add": {"title": "x"}}`, `{"increment": {}}`); `nil` optionals in keyed containers are omitted
///   (`encodeIfPresent`), as with `JSONEncoder`; explicit `encodeNil` writes `null`.
/// - `[String: V]` → `.object` (in the dictionary's iteration order); dictionaries with other key types
///   follow Swift's default (`Int` keys become string keys, others an array of alternating keys and values).
/// - A value that encodes nothing → `{}`.
///
/// Threading: the encoder is an immutable value; each `encode` call uses its own state, so one encoder may be
/// used from several threads at once.
public struct JSONValueEncoder: Sendable {
    /// Passed to the values' `encode(to:)` as `encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable]

    /// An encoder with no user info.
    public init() {
        userInfo = [:]
    }

    /// Encodes `value` into a JSON value. Throws `EncodingError` for the values listed in the type's
    /// documentation, or whatever the value's own `encode(to:)` throws.
    public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        let root = ValueEncoder(parent: nil, key: nil, userInfo: userInfo)
        return try root.box(value, key: nil)
    }
}

// MARK: - Implementation

/// The coding key used for array positions in coding paths.
struct IndexCodingKey: CodingKey {
    let intValue: Int?
    var stringValue: String { String(intValue ?? 0) }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) {
        guard let i = Int(stringValue) else { return nil }
        intValue = i
    }
    init?(intValue: Int) { self.intValue = intValue }
}

/// A container under construction whose final value is computed when its parent finishes.
enum PendingValue {
    case object(ObjectBuilder)
    case array(ArrayBuilder)
    case encoder(ValueEncoder)

    func finish() -> JSONValue {
        switch self {
        case .object(let b): return b.finish()
        case .array(let b): return b.finish()
        case .encoder(let e): return e.result()
        }
    }
}

/// Storage of a keyed container being filled.
/// Not thread-safe: confined to the single `encode` call that created it.
final class ObjectBuilder {
    var object = JSONObject()
    var pending: [(index: Int, value: PendingValue)] = []

    func set(_ value: JSONValue, forKey key: String) {
        if !pending.isEmpty, let i = object.index(forKey: key) {
            pending.removeAll { $0.index == i }
        }
        object.updateValue(value, forKey: key)
    }

    func setPending(_ value: PendingValue, forKey key: String) {
        object.updateValue(.null, forKey: key)
        let i = object.index(forKey: key)!
        pending.removeAll { $0.index == i }
        pending.append((i, value))
    }

    func finish() -> JSONValue {
        for (index, value) in pending {
            let finished = value.finish()
            object.modifyValue(at: index) { $0 = finished }
        }
        pending = []
        return .object(object)
    }
}

/// Storage of an unkeyed container being filled.
/// Not thread-safe: confined to the single `encode` call that created it.
final class ArrayBuilder {
    var values: [JSONValue] = []
    var pending: [(index: Int, value: PendingValue)] = []

    func append(_ value: JSONValue) { values.append(value) }

    func appendPending(_ value: PendingValue) {
        pending.append((values.count, value))
        values.append(.null)
    }

    func finish() -> JSONValue {
        for (index, value) in pending { values[index] = value.finish() }
        pending = []
        return .array(values)
    }
}

/// The `Encoder` handed to `encode(to:)`: one per encoded non-primitive value, and one per nested container
/// (so that coding paths are a walk up the parent chain, computed only when an error needs one).
/// Not thread-safe: confined to the single `encode` call that created it.
final class ValueEncoder: Encoder {
    enum Storage {
        case empty
        case value(JSONValue)
        case object(ObjectBuilder)
        case array(ArrayBuilder)
    }

    let parent: ValueEncoder?
    let key: (any CodingKey)?
    let sendableUserInfo: [CodingUserInfoKey: any Sendable]
    var storage: Storage = .empty

    init(parent: ValueEncoder?, key: (any CodingKey)?, userInfo: [CodingUserInfoKey: any Sendable]) {
        self.parent = parent
        self.key = key
        self.sendableUserInfo = userInfo
    }

    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var node: ValueEncoder? = self
        while let n = node {
            if let k = n.key { path.append(k) }
            node = n.parent
        }
        return path.reversed()
    }

    var userInfo: [CodingUserInfoKey: Any] { sendableUserInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let builder: ObjectBuilder
        if case .object(let existing) = storage {
            builder = existing
        } else {
            builder = ObjectBuilder()
            storage = .object(builder)
        }
        return KeyedEncodingContainer(KeyedValueEncodingContainer<Key>(encoder: self, builder: builder))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let builder: ArrayBuilder
        if case .array(let existing) = storage {
            builder = existing
        } else {
            builder = ArrayBuilder()
            storage = .array(builder)
        }
        return UnkeyedValueEncodingContainer(encoder: self, builder: builder)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueEncodingContainerImpl(encoder: self)
    }

    /// A node standing for a nested container (or a super encoder) stored under `key`.
    func child(key: any CodingKey) -> ValueEncoder {
        ValueEncoder(parent: self, key: key, userInfo: sendableUserInfo)
    }

    func result() -> JSONValue {
        switch storage {
        case .empty: return .object(JSONObject())
        case .value(let v): return v
        case .object(let b): return b.finish()
        case .array(let b): return b.finish()
        }
    }

    // MARK: Boxing

    func invalid(_ value: Any, _ key: (any CodingKey)?, _ reason: String) -> EncodingError {
        var path = codingPath
        if let key { path.append(key) }
        return EncodingError.invalidValue(value, EncodingError.Context(codingPath: path, debugDescription: reason))
    }

    @inline(__always)
    func boxDouble(_ d: Double, _ key: (any CodingKey)?) throws -> JSONValue {
        guard d.isFinite else { throw invalid(d, key, "\(d) cannot be represented in JSON") }
        return .double(d)
    }

    func boxFloat(_ f: Float, _ key: (any CodingKey)?) throws -> JSONValue {
        guard f.isFinite else { throw invalid(f, key, "\(f) cannot be represented in JSON") }
        return .double(Double(f.description) ?? Double(f))
    }

    @inline(__always)
    func boxUInt64(_ u: UInt64, _ key: (any CodingKey)?) throws -> JSONValue {
        guard u <= UInt64(Int64.max) else {
            throw invalid(u, key, "\(u) is larger than Int64.max and cannot be encoded without losing precision")
        }
        return .int(Int64(u))
    }

    /// Encodes any value stored under `key` of this encoder: primitives and the special Foundation types
    /// directly, everything else through a child encoder.
    func box<T: Encodable>(_ value: T, key: (any CodingKey)?) throws -> JSONValue {
        if let boxed = try boxFast(value, key: key) { return boxed }
        let child = ValueEncoder(parent: self, key: key, userInfo: sendableUserInfo)
        try value.encode(to: child)
        return child.result()
    }

    /// The JSON value of primitives and special types, `nil` for anything else.
    /// Type identity checks are pointer comparisons; the casts after them cannot fail.
    @inline(__always)
    func boxFast<T: Encodable>(_ value: T, key: (any CodingKey)?) throws -> JSONValue? {
        if T.self == String.self { return .string(unsafeBitCast(value, to: String.self)) }
        if T.self == Int.self { return .int(Int64(unsafeBitCast(value, to: Int.self))) }
        if T.self == Double.self { return try boxDouble(unsafeBitCast(value, to: Double.self), key) }
        if T.self == Bool.self { return .bool(unsafeBitCast(value, to: Bool.self)) }
        if T.self == JSONValue.self { return (value as! JSONValue) }
        if T.self == Date.self { return try boxDouble((value as! Date).timeIntervalSince1970, key) }
        if T.self == Int64.self { return .int(unsafeBitCast(value, to: Int64.self)) }
        if T.self == Int32.self { return .int(Int64(unsafeBitCast(value, to: Int32.self))) }
        if T.self == UInt64.self { return try boxUInt64(unsafeBitCast(value, to: UInt64.self), key) }
        if T.self == UInt.self { return try boxUInt64(UInt64(unsafeBitCast(value, to: UInt.self)), key) }
        if T.self == Float.self { return try boxFloat(unsafeBitCast(value, to: Float.self), key) }
        if T.self == Data.self { return .string((value as! Data).base64EncodedString()) }
        if T.self == URL.self { return .string((value as! URL).absoluteString) }
        if T.self == JSONObject.self { return .object(value as! JSONObject) }
        if T.self == Decimal.self { return boxDecimal(value as! Decimal) }
        return nil
    }

    func boxDecimal(_ d: Decimal) -> JSONValue {
        let text = d.description
        if let i = Int64(text) { return .int(i) }
        return .double(Double(text) ?? NSDecimalNumber(decimal: d).doubleValue)
    }
}

/// Keyed container writing into an `ObjectBuilder`.
/// Not thread-safe: confined to the single `encode` call that created it.
struct KeyedValueEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ValueEncoder
    let builder: ObjectBuilder

    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil(forKey key: Key) throws { builder.set(.null, forKey: key.stringValue) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { builder.set(.bool(value), forKey: key.stringValue) }
    mutating func encode(_ value: String, forKey key: Key) throws { builder.set(.string(value), forKey: key.stringValue) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        builder.set(try encoder.boxDouble(value, key), forKey: key.stringValue)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        builder.set(try encoder.boxFloat(value, key), forKey: key.stringValue)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { builder.set(.int(Int64(value)), forKey: key.stringValue) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { builder.set(.int(Int64(value)), forKey: key.stringValue) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { builder.set(.int(Int64(value)), forKey: key.stringValue) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { builder.set(.int(Int64(value)), forKey: key.stringValue) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { builder.set(.int(value), forKey: key.stringValue) }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
        builder.set(try encoder.boxUInt64(UInt64(value), key), forKey: key.stringValue)
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { builder.set(.int(Int64(value)), forKey: key.stringValue) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { builder.set(.int(Int64(value)), forKey: key.stringValue) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { builder.set(.int(Int64(value)), forKey: key.stringValue) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        builder.set(try encoder.boxUInt64(value, key), forKey: key.stringValue)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        builder.set(try encoder.box(value, key: key), forKey: key.stringValue)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = ObjectBuilder()
        builder.setPending(.object(nested), forKey: key.stringValue)
        return KeyedEncodingContainer(KeyedValueEncodingContainer<NestedKey>(encoder: encoder.child(key: key), builder: nested))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = ArrayBuilder()
        builder.setPending(.array(nested), forKey: key.stringValue)
        return UnkeyedValueEncodingContainer(encoder: encoder.child(key: key), builder: nested)
    }

    mutating func superEncoder() -> any Encoder {
        let child = encoder.child(key: SuperCodingKey())
        builder.setPending(.encoder(child), forKey: "super")
        return child
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let child = encoder.child(key: key)
        builder.setPending(.encoder(child), forKey: key.stringValue)
        return child
    }
}

/// The `super` key of `superEncoder()`.
struct SuperCodingKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }
    init() {}
    init?(stringValue: String) { guard stringValue == "super" else { return nil } }
    init?(intValue: Int) { nil }
}

/// Unkeyed container writing into an `ArrayBuilder`.
/// Not thread-safe: confined to the single `encode` call that created it.
struct UnkeyedValueEncodingContainer: UnkeyedEncodingContainer {
    let encoder: ValueEncoder
    let builder: ArrayBuilder

    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { builder.values.count }

    private var nextKey: IndexCodingKey { IndexCodingKey(builder.values.count) }

    mutating func encodeNil() throws { builder.append(.null) }
    mutating func encode(_ value: Bool) throws { builder.append(.bool(value)) }
    mutating func encode(_ value: String) throws { builder.append(.string(value)) }
    mutating func encode(_ value: Double) throws { builder.append(try encoder.boxDouble(value, nextKey)) }
    mutating func encode(_ value: Float) throws { builder.append(try encoder.boxFloat(value, nextKey)) }
    mutating func encode(_ value: Int) throws { builder.append(.int(Int64(value))) }
    mutating func encode(_ value: Int8) throws { builder.append(.int(Int64(value))) }
    mutating func encode(_ value: Int16) throws { builder.append(.int(Int64(value))) }
    mutating func encode(_ value: Int32) throws { builder.append(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { builder.append(.int(value)) }
    mutating func encode(_ value: UInt) throws { builder.append(try encoder.boxUInt64(UInt64(value), nextKey)) }
    mutating func encode(_ value: UInt8) throws { builder.append(.int(Int64(value))) }
    mutating func encode(_ value: UInt16) throws { builder.append(.int(Int64(value))) }
    mutating func encode(_ value: UInt32) throws { builder.append(.int(Int64(value))) }
    mutating func encode(_ value: UInt64) throws { builder.append(try encoder.boxUInt64(value, nextKey)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        builder.append(try encoder.box(value, key: nextKey))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let key = nextKey
        let nested = ObjectBuilder()
        builder.appendPending(.object(nested))
        return KeyedEncodingContainer(KeyedValueEncodingContainer<NestedKey>(encoder: encoder.child(key: key), builder: nested))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let key = nextKey
        let nested = ArrayBuilder()
        builder.appendPending(.array(nested))
        return UnkeyedValueEncodingContainer(encoder: encoder.child(key: key), builder: nested)
    }

    mutating func superEncoder() -> any Encoder {
        let child = encoder.child(key: nextKey)
        builder.appendPending(.encoder(child))
        return child
    }
}

/// Single-value container writing into its encoder's storage.
/// Not thread-safe: confined to the single `encode` call that created it.
struct SingleValueEncodingContainerImpl: SingleValueEncodingContainer {
    let encoder: ValueEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.storage = .value(.null) }
    mutating func encode(_ value: Bool) throws { encoder.storage = .value(.bool(value)) }
    mutating func encode(_ value: String) throws { encoder.storage = .value(.string(value)) }
    mutating func encode(_ value: Double) throws { encoder.storage = .value(try encoder.boxDouble(value, nil)) }
    mutating func encode(_ value: Float) throws { encoder.storage = .value(try encoder.boxFloat(value, nil)) }
    mutating func encode(_ value: Int) throws { encoder.storage = .value(.int(Int64(value))) }
    mutating func encode(_ value: Int8) throws { encoder.storage = .value(.int(Int64(value))) }
    mutating func encode(_ value: Int16) throws { encoder.storage = .value(.int(Int64(value))) }
    mutating func encode(_ value: Int32) throws { encoder.storage = .value(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { encoder.storage = .value(.int(value)) }
    mutating func encode(_ value: UInt) throws { encoder.storage = .value(try encoder.boxUInt64(UInt64(value), nil)) }
    mutating func encode(_ value: UInt8) throws { encoder.storage = .value(.int(Int64(value))) }
    mutating func encode(_ value: UInt16) throws { encoder.storage = .value(.int(Int64(value))) }
    mutating func encode(_ value: UInt32) throws { encoder.storage = .value(.int(Int64(value))) }
    mutating func encode(_ value: UInt64) throws { encoder.storage = .value(try encoder.boxUInt64(value, nil)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        // The value stands at this encoder's own position: a primitive is stored directly, anything else
        // encodes into this same encoder (as JSONEncoder does).
        if let boxed = try encoder.boxFast(value, key: nil) {
            encoder.storage = .value(boxed)
        } else {
            encoder.storage = .empty
            try value.encode(to: encoder)
        }
    }
}
