/// An endless sequence of one-field changes spread over a ``BenchState``: item positions from a seeded generator
/// (4,096 of them, cycled), values counting up, so that every action really changes the state.
///
/// Threading: a plain value; use it from one thread.
struct TouchSequence {
    private let positions: [(section: Int, item: Int)]
    private var step = 0
    private var value: Int

    /// Changes to items of `state`; values start at `firstValue` (pick one no item holds yet).
    init(over state: BenchState, seed: UInt64 = 1, firstValue: Int = 10_000_000) {
        var generator = SplitMix64(seed: seed)
        positions = (0..<4096).map { _ in
            let section = Int(generator.next() % UInt64(state.sections.count))
            let item = Int(generator.next() % UInt64(state.sections[section].items.count))
            return (section, item)
        }
        value = firstValue
    }

    /// The next action.
    @inline(__always)
    mutating func next() -> BenchAction {
        let position = positions[step & 4095]
        step &+= 1
        value &+= 1
        return .touch(section: position.section, item: position.item, value: value)
    }
}
