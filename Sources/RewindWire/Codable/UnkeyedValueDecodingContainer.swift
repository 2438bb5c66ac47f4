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
