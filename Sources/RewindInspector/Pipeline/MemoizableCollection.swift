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
    /// The bytes of this collection's own storage (its elements' inline sizes, with a hash table's spare room), not
    /// counting what the elements refer to: what a copy-on-write copy of it allocates.
    var memoStorageBytes: Int { get }
}

/// What a collection's storage object adds to its elements (the object's header and the allocator's), bytes.
private let storageHeaderBytes = 48

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
    /// This collection encoded at `site`, reusing `previousElements[i]` for each element that is the same as
    /// `previous`'s element at the same position — the same bytes (the same scalars and the same storage references:
    /// the same value), or `==` — and calling `changed(i)` before encoding each other element; nil when `previous` is
    /// not of this type or the encodings do not line up (then nothing was called).
    func memoEncodeReusing(previous: Any, previousElements: [JSONValue], at site: JSONValueEncodingSite,
                           changed: (Int) -> Void) throws -> JSONValue?
}

extension Array: MemoizableCollection {
    var memoStorageBytes: Int { storageHeaderBytes + capacity * MemoryLayout<Element>.stride }
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
    var memoStorageBytes: Int { storageHeaderBytes + capacity * MemoryLayout<Element>.stride }
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
    /// Keys and values in separate arrays sized to the table's capacity, plus a bit per bucket.
    var memoStorageBytes: Int {
        storageHeaderBytes + capacity * (MemoryLayout<Key>.stride + MemoryLayout<Value>.stride) * 4 / 3 + capacity / 4
    }
    /// A native `Dictionary` is one reference to its storage object; its bits are that object's address.
    var memoStorageIdentity: MemoStorageIdentity? {
        guard MemoryLayout<Self>.size == MemoryLayout<UnsafeRawPointer>.size else { return nil }
        return MemoStorageIdentity(address: unsafeBitCast(self, to: UnsafeRawPointer.self), count: count)
    }
    var memoCount: Int { count }
}

extension Set: MemoizableCollection {
    /// The elements in an array sized to the table's capacity, plus a bit per bucket.
    var memoStorageBytes: Int { storageHeaderBytes + capacity * MemoryLayout<Element>.stride * 4 / 3 + capacity / 4 }
    /// A native `Set` is one reference to its storage object; its bits are that object's address.
    var memoStorageIdentity: MemoStorageIdentity? {
        guard MemoryLayout<Self>.size == MemoryLayout<UnsafeRawPointer>.size else { return nil }
        return MemoStorageIdentity(address: unsafeBitCast(self, to: UnsafeRawPointer.self), count: count)
    }
    var memoCount: Int { count }
}

extension Array: ElementwiseReusableCollection where Element: Equatable & Encodable {
    func memoEncodeReusing(previous: Any, previousElements: [JSONValue], at site: JSONValueEncodingSite,
                           changed: (Int) -> Void) throws -> JSONValue?
    {
        guard let previous = previous as? [Element], previous.count == previousElements.count else { return nil }
        return try previous.withUnsafeBufferPointer { old in
            try withUnsafeBufferPointer { new in
                try memoEncodeElements(new, reusing: old, previousElements, at: site, changed: changed)
            }
        }
    }
}

extension ContiguousArray: ElementwiseReusableCollection where Element: Equatable & Encodable {
    func memoEncodeReusing(previous: Any, previousElements: [JSONValue], at site: JSONValueEncodingSite,
                           changed: (Int) -> Void) throws -> JSONValue?
    {
        guard let previous = previous as? ContiguousArray<Element>, previous.count == previousElements.count else {
            return nil
        }
        return try previous.withUnsafeBufferPointer { old in
            try withUnsafeBufferPointer { new in
                try memoEncodeElements(new, reusing: old, previousElements, at: site, changed: changed)
            }
        }
    }
}

/// `elements` encoded at `site`, each one that is the same as `old`'s at its position (see
/// ``ElementwiseReusableCollection``) taking `oldEncodings`' encoding. Elements are compared in place (not copied):
/// first their bytes — a value whose bytes are those of the remembered one holds the same scalars and refers to the
/// same storage, which the remembered collection keeps alive and unchanged — then, when the bytes differ, with `==`.
private func memoEncodeElements<Element: Equatable & Encodable>(
    _ elements: UnsafeBufferPointer<Element>, reusing old: UnsafeBufferPointer<Element>, _ oldEncodings: [JSONValue],
    at site: JSONValueEncodingSite, changed: (Int) -> Void
) throws -> JSONValue {
    // Read once: in this unspecialized code each use of the element type's layout is a call for its metadata.
    let size = MemoryLayout<Element>.size, stride = MemoryLayout<Element>.stride
    let newBase = elements.baseAddress, oldBase = old.baseAddress
    let newBytes = UnsafeRawPointer(newBase), oldBytes = UnsafeRawPointer(oldBase)
    let shared = min(elements.count, old.count)
    return try site.encodeArray(elements) { i in
        if i < shared, let newBase, let oldBase, let newBytes, let oldBytes {
            if size == 0 || ValueBytes.equal(newBytes + i &* stride, oldBytes + i &* stride, count: size) {
                return oldEncodings[i]
            }
            // Compared where they lie: a pointer's subscript lends the element, where the buffer's copies it (and
            // a copy made by the array's copy-on-write may differ from the original in its padding bytes only, so
            // this comparison runs for many elements that did not change).
            if newBase[i] == oldBase[i] { return oldEncodings[i] }
        }
        changed(i)
        // Spelled out: a bare `nil` here would be `JSONValue.null` (it is ExpressibleByNilLiteral).
        return Optional<JSONValue>.none
    }
}
