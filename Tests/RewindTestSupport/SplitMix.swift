/// A deterministic random number generator (SplitMix64) for generated tests: a failing seed can be run again.
///
/// Threading: a plain value; one test uses one generator.
package struct SplitMix: RandomNumberGenerator {
    private var state: UInt64

    /// A generator whose numbers follow from `seed`.
    package init(seed: UInt64) { state = seed }

    /// The next number.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
