/// Unkeyed container writing into its encoder's array.
/// Not thread-safe: confined to the single `encode` call that created it.
struct UnkeyedValueEncodingContainer: UnkeyedEncodingContainer {
    let encoder: ValueEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { encoder.values.count }

    private var nextKey: IndexCodingKey { IndexCodingKey(encoder.values.count) }

    mutating func encodeNil() throws { encoder.values.append(.null) }
    mutating func encode(_ value: Bool) throws { encoder.values.append(.bool(value)) }
    mutating func encode(_ value: String) throws { encoder.values.append(.string(value)) }
    mutating func encode(_ value: Double) throws { encoder.values.append(try encoder.boxDouble(value, nextKey)) }
    mutating func encode(_ value: Float) throws { encoder.values.append(try encoder.boxFloat(value, nextKey)) }
    mutating func encode(_ value: Int) throws { encoder.values.append(.int(Int64(value))) }
    mutating func encode(_ value: Int8) throws { encoder.values.append(.int(Int64(value))) }
    mutating func encode(_ value: Int16) throws { encoder.values.append(.int(Int64(value))) }
    mutating func encode(_ value: Int32) throws { encoder.values.append(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { encoder.values.append(.int(value)) }
    mutating func encode(_ value: UInt) throws { encoder.values.append(try encoder.boxUInt64(UInt64(value), nextKey)) }
    mutating func encode(_ value: UInt8) throws { encoder.values.append(.int(Int64(value))) }
    mutating func encode(_ value: UInt16) throws { encoder.values.append(.int(Int64(value))) }
    mutating func encode(_ value: UInt32) throws { encoder.values.append(.int(Int64(value))) }
    mutating func encode(_ value: UInt64) throws { encoder.values.append(try encoder.boxUInt64(value, nextKey)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let i = encoder.values.count
        let boxed = try encoder.box(value, key: IndexCodingKey(i), index: i)
        encoder.values.append(boxed)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let node = encoder.child(key: nextKey)
        node.beginObject(keyType: ObjectIdentifier(NestedKey.self))
        encoder.appendPending(node)
        return KeyedEncodingContainer(KeyedValueEncodingContainer<NestedKey>(encoder: node))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let node = encoder.child(key: nextKey)
        node.beginArray()
        encoder.appendPending(node)
        return UnkeyedValueEncodingContainer(encoder: node)
    }

    mutating func superEncoder() -> any Encoder {
        let node = encoder.child(key: nextKey)
        encoder.appendPending(node)
        return node
    }
}
