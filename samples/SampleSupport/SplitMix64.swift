/// A small seeded random number generator (SplitMix64): the same seed gives the same numbers on every run and
/// platform, which `SystemRandomNumberGenerator` does not.
///
/// Threading: a value; each owner keeps its own.
package struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    package init(seed: UInt64) {
        state = seed
    }

    /// The next number of the sequence.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<1.
    package mutating func nextUnitDouble() -> Double {
        Double(next() >> 11) / Double(1 << 53)
    }
}
