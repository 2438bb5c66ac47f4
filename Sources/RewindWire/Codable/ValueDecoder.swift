import Foundation

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
