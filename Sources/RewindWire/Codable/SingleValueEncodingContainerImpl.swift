/// Single-value container writing into its encoder's storage.
/// Not thread-safe: confined to the single `encode` call that created it.
struct SingleValueEncodingContainerImpl: SingleValueEncodingContainer {
    let encoder: ValueEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.setSingle(.null) }
    mutating func encode(_ value: Bool) throws { encoder.setSingle(.bool(value)) }
    mutating func encode(_ value: String) throws { encoder.setSingle(.string(value)) }
    mutating func encode(_ value: Double) throws { encoder.setSingle(try encoder.boxDouble(value, nil)) }
    mutating func encode(_ value: Float) throws { encoder.setSingle(try encoder.boxFloat(value, nil)) }
    mutating func encode(_ value: Int) throws { encoder.setSingle(.int(Int64(value))) }
    mutating func encode(_ value: Int8) throws { encoder.setSingle(.int(Int64(value))) }
    mutating func encode(_ value: Int16) throws { encoder.setSingle(.int(Int64(value))) }
    mutating func encode(_ value: Int32) throws { encoder.setSingle(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { encoder.setSingle(.int(value)) }
    mutating func encode(_ value: UInt) throws { encoder.setSingle(try encoder.boxUInt64(UInt64(value), nil)) }
    mutating func encode(_ value: UInt8) throws { encoder.setSingle(.int(Int64(value))) }
    mutating func encode(_ value: UInt16) throws { encoder.setSingle(.int(Int64(value))) }
    mutating func encode(_ value: UInt32) throws { encoder.setSingle(.int(Int64(value))) }
    mutating func encode(_ value: UInt64) throws { encoder.setSingle(try encoder.boxUInt64(value, nil)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        // The value stands at this encoder's own position: a primitive is stored directly, anything else
        // encodes into this same encoder (as JSONEncoder does).
        if let boxed = try encoder.boxFast(value, key: nil) {
            encoder.kind = .single
            encoder.single = boxed
        } else {
            encoder.kind = .empty
            try value.encode(to: encoder)
        }
    }
}
