/// Compares two values' bytes in place: how the encoding memo and the differ recognise a value that is the one
/// they remember (the same scalars, the same references to storage) without calling `==` or copying it.
///
/// Threading: pure functions.
public enum ValueBytes {
    /// True when the `count` bytes at `a` and `b` are equal. Padding bytes may differ between equal values: a false
    /// answer only means "compare otherwise".
    @inlinable @inline(__always)
    public static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        var offset = 0
        while offset + 8 <= count {
            if a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                != b.loadUnaligned(fromByteOffset: offset, as: UInt64.self) { return false }
            offset += 8
        }
        while offset < count {
            if a.load(fromByteOffset: offset, as: UInt8.self) != b.load(fromByteOffset: offset, as: UInt8.self) {
                return false
            }
            offset += 1
        }
        return true
    }
}
