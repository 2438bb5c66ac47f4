/// Compares an access token presented by a peer with the one a daemon requires.
///
/// The comparison is on the UTF-8 bytes, byte for byte (a Swift `String ==` would accept any canonically
/// equivalent spelling, e.g. `é` precomposed for `e` + combining acute), and takes a time that depends only
/// on the lengths, not on where the first difference is (so that timing cannot reveal a prefix of the token).
///
/// Threading: pure functions; safe from any thread.
public enum TokenComparison {
    /// True when `presented` is exactly `expected`, byte for byte in UTF-8. `nil` never matches.
    public static func matches(_ presented: String?, _ expected: String) -> Bool {
        guard let presented else { return false }
        let a = Array(presented.utf8), b = Array(expected.utf8)
        // Walk the expected token whatever the presented length, folding every difference into one value.
        var difference = UInt(bitPattern: a.count ^ b.count)
        for i in 0..<b.count {
            let x = i < a.count ? a[i] : ~b[i]
            difference |= UInt(x ^ b[i])
        }
        return difference == 0
    }
}
