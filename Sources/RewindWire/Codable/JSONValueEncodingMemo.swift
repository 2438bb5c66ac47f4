/// A memo ``JSONValueEncoder/encode(_:memo:)`` consults before encoding a value, so that parts of a value that
/// cannot have changed since an earlier encoding are not encoded again (the inspector's incremental state encoding).
///
/// For every value the encoder would encode through the value's own `encode(to:)` (not the primitives it writes
/// directly), it asks ``handles(_:)``; for a type the memo handles it calls ``encode(_:at:)`` instead, which either
/// answers from the memo or encodes with the ``JSONValueEncodingSite`` it is given. The memo answers for the
/// correctness of what it returns: it must be exactly what encoding the value at that place produces.
///
/// Threading: called on the thread that runs the `encode` call, synchronously; a memo used by one encode at a time.
public protocol JSONValueEncodingMemo: AnyObject {
    /// True when values of `type` go through ``encode(_:at:)``. Called for every value encoded through its own
    /// `encode(to:)`, so it should be a cached look-up.
    func handles(_ type: Any.Type) -> Bool

    /// The encoding of `value`, which will be stored at `site`: from the memo, or from `site`'s encode methods.
    func encode<T: Encodable>(_ value: T, at site: JSONValueEncodingSite) throws -> JSONValue
}

/// Where a value handled by a ``JSONValueEncodingMemo`` goes in the document being encoded, and the ways to encode it
/// there.
///
/// Threading: valid only inside the ``JSONValueEncodingMemo/encode(_:at:)`` call it is passed to.
public struct JSONValueEncodingSite {
    let encoder: ValueEncoder
    let key: (any CodingKey)?
    let index: Int

    /// The JSON Pointer (RFC 6901) tokens of the value's place, from the root: object keys, and array positions in
    /// decimal.
    public var pathTokens: [String] {
        var tokens = encoder.codingPath.map(\.stringValue)
        if index >= 0 {
            tokens.append(String(index))
        } else if let key {
            tokens.append(key.stringValue)
        }
        return tokens
    }

    /// Encodes `value` as the encoder would without the memo at this place (values nested inside it still consult
    /// the memo).
    public func encodeFully<T: Encodable>(_ value: T) throws -> JSONValue {
        try encoder.boxUnmemoized(value, key: key, index: index)
    }

    /// Encodes `elements` as an array, exactly as `Array`'s and `ContiguousArray`'s `encode(to:)` do (each element
    /// through an unkeyed container), except that an element for which `reusing` returns a value gets that value
    /// without being encoded (nor read). `reusing` is called once per position, in order, before the element there is
    /// encoded.
    ///
    /// The positions are counted with an `Int`, and an element's index is formed only when it is encoded: the memo
    /// calls this unspecialized (its element type is the app's), where each of the collection's index operations is
    /// a call through its witness table, and most elements of a big array are reused.
    public func encodeArray<C: RandomAccessCollection>(_ elements: C, reusing: (Int) -> JSONValue?) throws -> JSONValue
        where C.Element: Encodable
    {
        let count = elements.count
        // The encoder this place used last time (with the object layouts its children learnt), or a new one.
        var child: ValueEncoder
        if let spare = encoder.spareArrayChild {
            encoder.spareArrayChild = nil
            child = spare
            child.key = index >= 0 ? nil : key
        } else {
            child = ValueEncoder(parent: encoder, key: index >= 0 ? nil : key, userInfo: encoder.sendableUserInfo,
                                 keyStyle: encoder.keyStyle, memo: encoder.memo)
        }
        child.index = index
        child.beginArray()
        child.values.reserveCapacity(count)
        do {
            // Scoped: the container refers to `child`, which is kept for reuse below only when nothing else does.
            var container = UnkeyedValueEncodingContainer(encoder: child)
            for i in 0..<count {
                // The element is read only when it is encoded: a reused one is not even copied.
                if let reused = reusing(i) {
                    child.values.append(reused)
                } else {
                    try container.encode(elements[elements.index(elements.startIndex, offsetBy: i)])
                }
            }
        }
        let result = child.result()
        if isKnownUniquelyReferenced(&child) { encoder.spareArrayChild = child }
        return result
    }
}
