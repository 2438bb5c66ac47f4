import Rewind
import SampleSupport

/// A state of configurable size: `items` hold the bulk, each with a payload string.
struct StressState: Codable, Equatable, Sendable {
    struct Item: Codable, Equatable, Sendable {
        var id: Int
        var value: Int
        var payload: String
    }

    var items: [Item] = []
    var counter = 0
    var note = ""

    /// A state of roughly `bytes` bytes of JSON, in items of about 100 bytes.
    static func sized(_ bytes: Int) -> StressState {
        let count = max(1, bytes / 100)
        var state = StressState()
        state.items = (0..<count).map { Item(id: $0, value: 0, payload: String(repeating: "x", count: 60)) }
        return state
    }
}

/// The actions `stress` generates: small changes to one item, larger writes, appends and removals.
enum StressAction: Codable, Equatable, Sendable {
    case touch(index: Int, value: Int)
    case write(index: Int, text: String)
    case append(StressState.Item)
    case remove(index: Int)
    case tick
}

let stressReducer = Reducer<StressState, StressAction> { state, action in
    switch action {
    case .touch(let index, let value):
        if state.items.indices.contains(index) { state.items[index].value = value }
    case .write(let index, let text):
        if state.items.indices.contains(index) { state.items[index].payload = text }
    case .append(let item):
        state.items.append(item)
    case .remove(let index):
        if state.items.indices.contains(index) { state.items.remove(at: index) }
    case .tick:
        break
    }
    state.counter += 1
    return .none
}

/// The next action of a run: mostly one-field changes, some writes of `changeBytes`, a few appends and removals.
func randomAction(in state: StressState, changeBytes: Int, mix: StressMix, using generator: inout SplitMix64)
    -> StressAction
{
    let count = state.items.count
    let roll = Int.random(in: 0..<100, using: &generator)
    switch mix {
    case .touch:
        return .touch(index: count == 0 ? 0 : Int.random(in: 0..<count, using: &generator),
                      value: Int.random(in: 0..<1_000_000, using: &generator))
    case .mixed:
        if count == 0 || roll < 5 {
            return .append(.init(id: state.counter + 1_000_000, value: roll, payload: "new"))
        }
        let index = Int.random(in: 0..<count, using: &generator)
        if roll < 8 { return .remove(index: index) }
        if roll < 30 {
            let letter = Character(UnicodeScalar(UInt8(97 + roll % 26)))
            return .write(index: index, text: String(repeating: letter, count: max(1, changeBytes)))
        }
        return .touch(index: index, value: Int.random(in: 0..<1_000_000, using: &generator))
    }
}

/// Which actions a run generates.
enum StressMix: String {
    /// Only one-field changes (the smallest patches).
    case touch
    /// Changes, writes, appends and removals.
    case mixed
}
