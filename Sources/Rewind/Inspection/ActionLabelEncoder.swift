/// A minimal `Encoder` that records the enum case path of a value and stops encoding as soon as the path ends.
///
/// Synthesized `Codable` encodes `case add(title: String)` as `container(keyedBy:)` followed by
/// `nestedContainer(keyedBy:forKey: .add)` and then `encode(_:forKey:)` of each associated value. So a value's case
/// is the key of a `nestedContainer` call made first on its top-level keyed container, and the path continues into
/// the first associated value when that value is itself encoded through a keyed container. Any other operation ends
/// the path; encoding is then aborted by throwing ``Stop``, so payloads are never encoded.
///
/// Threading: one instance per call; not shared.
final class ActionLabelEncoder: Encoder {
    /// Thrown to abort encoding once the path is complete.
    struct Stop: Error {}

    /// What the encoder expects next.
    enum Phase {
        /// The first operation on a value: a case container (`nestedContainer`) extends the path.
        case value
        /// Inside a case: the first associated value may continue the path.
        case payload
        /// The path is complete; any further operation stops encoding.
        case done
    }

    var path: [String] = []
    /// The string a top-level single-value encoding produced (e.g. a `String` raw-value enum).
    private(set) var singleValue: String?
    var phase: Phase = .value
    private var depth = 0

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func label(of value: any Encodable) {
        do {
            try value.encode(to: self)
        } catch {
            // `Stop` (or an error of the value's own encoding): the path found so far is the label.
        }
    }

    /// Continues the path into an associated value.
    func descend<T: Encodable>(into value: T) throws {
        if let provider = value as? any ActionLabelProviding {
            path.append(provider.actionLabel)
            phase = .done
            throw Stop()
        }
        phase = .value
        depth += 1
        try value.encode(to: self)
        phase = .done
        throw Stop()
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(LabelKeyedContainer<Key>(encoder: self, isCaseContainer: false))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        phase = .done
        return LabelUnkeyedContainer()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        let isTopLevel = depth == 0 && phase == .value
        phase = .done
        return LabelSingleValueContainer(encoder: self, recordsString: isTopLevel)
    }

    fileprivate func recordSingleValue(_ string: String) {
        singleValue = string
    }

    static func isPositional(_ key: some CodingKey) -> Bool {
        let name = key.stringValue
        guard name.hasPrefix("_"), name.count > 1 else { return false }
        return name.dropFirst().allSatisfy(\.isNumber)
    }
}

/// Keyed container of ``ActionLabelEncoder``: either a value's top-level container or a case's payload container.
private struct LabelKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ActionLabelEncoder
    /// True for the container a case opened with `nestedContainer`: its first `encode` continues the path.
    let isCaseContainer: Bool

    var codingPath: [any CodingKey] { [] }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        if !isCaseContainer, encoder.phase == .value {
            if !ActionLabelEncoder.isPositional(key) {
                encoder.path.append(key.stringValue)
            }
            encoder.phase = .payload
            return KeyedEncodingContainer(LabelKeyedContainer<NestedKey>(encoder: encoder, isCaseContainer: true))
        }
        encoder.phase = .done
        return KeyedEncodingContainer(LabelKeyedContainer<NestedKey>(encoder: encoder, isCaseContainer: false))
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if isCaseContainer, encoder.phase == .payload {
            try encoder.descend(into: value)
        }
        throw ActionLabelEncoder.Stop()
    }

    mutating func encodeNil(forKey key: Key) throws { throw ActionLabelEncoder.Stop() }
    mutating func encode(_ value: Bool, forKey key: Key) throws { throw ActionLabelEncoder.Stop() }
    mutating func encode(_ value: String, forKey key: Key) throws { throw ActionLabelEncoder.Stop() }
    mutating func encode(_ value: Double, forKey key: Key) throws { throw ActionLabelEncoder.Stop() }
    mutating func encode(_ value: Float, forKey key: Key) throws { throw ActionLabelEncoder.Stop() }
    mutating func encode(_ value: Int, forKey key: Key) throws { throw ActionLabelEncoder.Stop() }
    mutating func encode(_ value: Int8, forKey key: Key) throws { throw ActionLabelEncoder.Stop() }
    mutating func encode(_ value: Int16, forKey key: Key) throws { throw ActionLabelEncoder.Stop() }
    mutating func encode(_ value: Int32, forKey key: Key) throws { throw ActionLabelEncoder.Stop() }
    mutating func encode(_ value: Int64, forKey key: Key) throws { throw ActionLabelEncoder.Stop() }
    mutating func encode(_ value: UInt, forKey key: Key) throws { throw ActionLabelEncoder.Stop() }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { throw ActionLabelEncoder.Stop() }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { throw ActionLabelEncoder.Stop() }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { throw ActionLabelEncoder.Stop() }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { throw ActionLabelEncoder.Stop() }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder.phase = .done
        return LabelUnkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        encoder.phase = .done
        return encoder
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        encoder.phase = .done
        return encoder
    }
}

/// Unkeyed container of ``ActionLabelEncoder``: arrays never extend a case path.
private struct LabelUnkeyedContainer: UnkeyedEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count: Int { 0 }

    mutating func encodeNil() throws { throw ActionLabelEncoder.Stop() }
    mutating func encode<T: Encodable>(_ value: T) throws { throw ActionLabelEncoder.Stop() }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(LabelDeadKeyedContainer<NestedKey>())
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
    mutating func superEncoder() -> any Encoder { ActionLabelEncoder() }
}

/// A keyed container that ends encoding on first use.
private struct LabelDeadKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws { throw ActionLabelEncoder.Stop() }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw ActionLabelEncoder.Stop() }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(LabelDeadKeyedContainer<NestedKey>())
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { LabelUnkeyedContainer() }
    mutating func superEncoder() -> any Encoder { ActionLabelEncoder() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { ActionLabelEncoder() }
}

/// Single-value container of ``ActionLabelEncoder``: records a top-level string, then stops.
private struct LabelSingleValueContainer: SingleValueEncodingContainer {
    let encoder: ActionLabelEncoder
    let recordsString: Bool

    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws { throw ActionLabelEncoder.Stop() }
    mutating func encode(_ value: Bool) throws { throw ActionLabelEncoder.Stop() }
    mutating func encode(_ value: Double) throws { throw ActionLabelEncoder.Stop() }
    mutating func encode(_ value: Float) throws { throw ActionLabelEncoder.Stop() }
    mutating func encode(_ value: Int) throws { throw ActionLabelEncoder.Stop() }
    mutating func encode(_ value: Int8) throws { throw ActionLabelEncoder.Stop() }
    mutating func encode(_ value: Int16) throws { throw ActionLabelEncoder.Stop() }
    mutating func encode(_ value: Int32) throws { throw ActionLabelEncoder.Stop() }
    mutating func encode(_ value: Int64) throws { throw ActionLabelEncoder.Stop() }
    mutating func encode(_ value: UInt) throws { throw ActionLabelEncoder.Stop() }
    mutating func encode(_ value: UInt8) throws { throw ActionLabelEncoder.Stop() }
    mutating func encode(_ value: UInt16) throws { throw ActionLabelEncoder.Stop() }
    mutating func encode(_ value: UInt32) throws { throw ActionLabelEncoder.Stop() }
    mutating func encode(_ value: UInt64) throws { throw ActionLabelEncoder.Stop() }

    mutating func encode(_ value: String) throws {
        if recordsString {
            encoder.recordSingleValue(value)
        }
        throw ActionLabelEncoder.Stop()
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if recordsString, let string = value as? String {
            encoder.recordSingleValue(string)
        }
        throw ActionLabelEncoder.Stop()
    }
}
