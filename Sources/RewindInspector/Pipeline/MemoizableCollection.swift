import RewindWire

/// A copy-on-write collection whose storage identity says whether it can have changed: while an earlier value of
/// it is alive, a value with the same storage address and count holds the same elements (a mutation of shared
/// storage copies it first). ``StateEncodingMemo`` keeps the earlier value alive for exactly that reason.
///
/// Threading: the conforming types are values; the members are pure.
protocol MemoizableCollection {
    /// The address of the storage and the element count; nil when the storage has no identity to compare (an
    /// empty collection may share a global empty storage, which is fine: same address and count 0 mean equal).
    var memoStorageIdentity: MemoStorageIdentity? { get }
    /// The number of elements.
    var memoCount: Int { get }
}

/// A collection's storage address and count (see ``MemoizableCollection``).
struct MemoStorageIdentity: Equatable {
    let address: UnsafeRawPointer
    let count: Int
}

/// An ordered collection whose unchanged elements can reuse their earlier encodings when the collection changed:
/// `Array` and `ContiguousArray` of `Equatable` elements.
///
/// Threading: pure members.
protocol ElementwiseReusableCollection {
    /// This collection encoded at `site`, reusing `previousElements[i]` for each element equal to `previous`'s
    /// element at the same position; nil when `previous` is not of this type or the encodings do not line up.
    func memoEncodeReusing(previous: Any, previousElements: [JSONValue], at site: JSONValueEncodingSite) throws
        -> JSONValue?
}

extension Array: MemoizableCollection {
    /// The collection is one reference to its storage object (on Apple platforms an `Array` may instead refer to an
    /// immutable `NSArray`); its bits are that object's address. Not the element buffer's address: for a bridged
    /// array that can be a temporary copy, whose address a later temporary could take.
    var memoStorageIdentity: MemoStorageIdentity? {
        guard MemoryLayout<Self>.size == MemoryLayout<UnsafeRawPointer>.size else { return nil }
        return MemoStorageIdentity(address: unsafeBitCast(self, to: UnsafeRawPointer.self), count: count)
    }
    var memoCount: Int { count }
}

extension ContiguousArray: MemoizableCollection {
    /// The collection is one reference to its storage object (on Apple platforms an `Array` may instead refer to an
    /// immutable `NSArray`); its bits are that object's address. Not the element buffer's address: for a bridged
    /// array that can be a temporary copy, whose address a later temporary could take.
    var memoStorageIdentity: MemoStorageIdentity? {
        guard MemoryLayout<Self>.size == MemoryLayout<UnsafeRawPointer>.size else { return nil }
        return MemoStorageIdentity(address: unsafeBitCast(self, to: UnsafeRawPointer.self), count: count)
    }
    var memoCount: Int { count }
}

extension Dictionary: MemoizableCollection {
    /// A native `Dictionary` is one reference to its storage object; its bits are that object's address.
    var memoStorageIdentity: MemoStorageIdentity? {
        guard MemoryLayout<Self>.size == MemoryLayout<UnsafeRawPointer>.size else { return nil }
        return MemoStorageIdentity(address: unsafeBitCast(self, to: UnsafeRawPointer.self), count: count)
    }
    var memoCount: Int { count }
}

extension Set: MemoizableCollection {
    /// A native `Set` is one reference to its storage object; its bits are that object's address.
    var memoStorageIdentity: MemoStorageIdentity? {
        guard MemoryLayout<Self>.size == MemoryLayout<UnsafeRawPointer>.size else { return nil }
        return MemoStorageIdentity(address: unsafeBitCast(self, to: UnsafeRawPointer.self), count: count)
    }
    var memoCount: Int { count }
}

extension Array: ElementwiseReusableCollection where Element: Equatable & Encodable {
    func memoEncodeReusing(previous: Any, previousElements: [JSONValue], at site: JSONValueEncodingSite) throws
        -> JSONValue?
    {
        guard let previous = previous as? [Element], previous.count == previousElements.count else { return nil }
        return try site.encodeArray(self) { i in
            // Spelled out: a bare `nil` here would be `JSONValue.null` (it is ExpressibleByNilLiteral).
            i < previous.count && previous[i] == self[i] ? Optional(previousElements[i]) : Optional<JSONValue>.none
        }
    }
}

extension ContiguousArray: ElementwiseReusableCollection where Element: Equatable & Encodable {
    func memoEncodeReusing(previous: Any, previousElements: [JSONValue], at site: JSONValueEncodingSite) throws
        -> JSONValue?
    {
        guard let previous = previous as? ContiguousArray<Element>, previous.count == previousElements.count else {
            return nil
        }
        return try site.encodeArray(self) { i in
            // Spelled out: a bare `nil` here would be `JSONValue.null` (it is ExpressibleByNilLiteral).
            i < previous.count && previous[i] == self[i] ? Optional(previousElements[i]) : Optional<JSONValue>.none
        }
    }
}
