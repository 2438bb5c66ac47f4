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
