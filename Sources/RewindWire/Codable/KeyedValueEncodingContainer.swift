/// Keyed container writing into its encoder's object.
/// Not thread-safe: confined to the single `encode` call that created it.
struct KeyedValueEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ValueEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil(forKey key: Key) throws { encoder.set(.null, forKey: key.stringValue) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { encoder.set(.bool(value), forKey: key.stringValue) }
    mutating func encode(_ value: String, forKey key: Key) throws { encoder.set(.string(value), forKey: key.stringValue) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        encoder.set(try encoder.boxDouble(value, key), forKey: key.stringValue)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        encoder.set(try encoder.boxFloat(value, key), forKey: key.stringValue)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { encoder.set(.int(Int64(value)), forKey: key.stringValue) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { encoder.set(.int(Int64(value)), forKey: key.stringValue) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { encoder.set(.int(Int64(value)), forKey: key.stringValue) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { encoder.set(.int(Int64(value)), forKey: key.stringValue) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { encoder.set(.int(value), forKey: key.stringValue) }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
        encoder.set(try encoder.boxUInt64(UInt64(value), key), forKey: key.stringValue)
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { encoder.set(.int(Int64(value)), forKey: key.stringValue) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { encoder.set(.int(Int64(value)), forKey: key.stringValue) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { encoder.set(.int(Int64(value)), forKey: key.stringValue) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        encoder.set(try encoder.boxUInt64(value, key), forKey: key.stringValue)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        encoder.set(try encoder.box(value, key: key), forKey: key.stringValue)
    }

    // `encodeIfPresent` for the common types, so that optionals skip the protocol's generic default.
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        if let value { encoder.set(.string(value), forKey: key.stringValue) }
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        if let value { encoder.set(.int(Int64(value)), forKey: key.stringValue) }
    }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        if let value { encoder.set(.bool(value), forKey: key.stringValue) }
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        if let value { encoder.set(try encoder.boxDouble(value, key), forKey: key.stringValue) }
    }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { encoder.set(try encoder.box(value, key: key), forKey: key.stringValue) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let node = encoder.child(key: key)
        node.beginObject(keyType: ObjectIdentifier(NestedKey.self))
        encoder.setPending(node, forKey: key.stringValue)
        return KeyedEncodingContainer(KeyedValueEncodingContainer<NestedKey>(encoder: node))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let node = encoder.child(key: key)
        node.beginArray()
        encoder.setPending(node, forKey: key.stringValue)
        return UnkeyedValueEncodingContainer(encoder: node)
    }

    mutating func superEncoder() -> any Encoder {
        let node = encoder.child(key: SuperCodingKey())
        encoder.setPending(node, forKey: "super")
        return node
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let node = encoder.child(key: key)
        encoder.setPending(node, forKey: key.stringValue)
        return node
    }
}
