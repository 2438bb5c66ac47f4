// `JSONValue` is itself `Codable`, so that `Codable` types can hold arbitrary JSON (e.g. an action payload)
// and any encoder (JSONEncoder, JSONValueEncoder) can write it.

extension JSONValue: Codable {
    /// Writes the value: scalars through a single-value container, arrays through an unkeyed container,
    /// objects through a keyed container in key order. Non-finite doubles make the encoder throw.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var c = encoder.singleValueContainer()
            try c.encodeNil()
        case .bool(let b):
            var c = encoder.singleValueContainer()
            try c.encode(b)
        case .int(let i):
            var c = encoder.singleValueContainer()
            try c.encode(i)
        case .double(let d):
            var c = encoder.singleValueContainer()
            try c.encode(d)
        case .string(let s):
            var c = encoder.singleValueContainer()
            try c.encode(s)
        case .array(let a):
            var c = encoder.unkeyedContainer()
            for element in a { try c.encode(element) }
        case .object(let o):
            var c = encoder.container(keyedBy: DynamicCodingKey.self)
            for (key, value) in o { try c.encode(value, forKey: DynamicCodingKey(key)) }
        }
    }

    /// Reads any JSON: null, booleans, integers (as `.int` when they fit in `Int64`), other numbers, strings,
    /// arrays and objects (in the order the decoder lists their keys).
    public init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: DynamicCodingKey.self) {
            var o = JSONObject()
            for key in keyed.allKeys { o[key.stringValue] = try keyed.decode(JSONValue.self, forKey: key) }
            self = .object(o)
            return
        }
        if var unkeyed = try? decoder.unkeyedContainer() {
            var a: [JSONValue] = []
            if let count = unkeyed.count { a.reserveCapacity(count) }
            while !unkeyed.isAtEnd { a.append(try unkeyed.decode(JSONValue.self)) }
            self = .array(a)
            return
        }
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? c.decode(Int64.self) {
            self = .int(i)
        } else if let d = try? c.decode(Double.self) {
            self = .double(d)
        } else {
            self = .string(try c.decode(String.self))
        }
    }
}
