import Rewind
import SampleSupport

/// A state of configurable size: `items` hold the bulk, each with a payload string — in one flat array, or (the
/// `sections` layout) in sections of 100, as apps usually nest large collections.
struct StressState: Codable, Equatable, Sendable {
    struct Item: Codable, Equatable, Sendable {
        var id: Int
        var value: Int
        var payload: String
    }

    /// A hundred items of the `sections` layout.
    struct Section: Codable, Equatable, Sendable {
        var id: Int
        var items: [Item]
    }

    var items: [Item] = []
    /// The items in sections (the `sections` layout); nil in the flat layout (and then not encoded).
    var sections: [Section]?
    var counter = 0
    var note = ""

    /// How many items a section of the `sections` layout holds when it is made.
    static let sectionSize = 100

    /// A state of roughly `bytes` bytes of JSON, in items of about 100 bytes, laid out as `layout` says.
    static func sized(_ bytes: Int, layout: StressLayout = .flat) -> StressState {
        let count = max(1, bytes / 100)
        let items = (0..<count).map { Item(id: $0, value: 0, payload: String(repeating: "x", count: 60)) }
        var state = StressState()
        switch layout {
        case .flat:
            state.items = items
        case .sections:
            state.sections = stride(from: 0, to: count, by: sectionSize).map {
                Section(id: $0, items: Array(items[$0..<min(count, $0 + sectionSize)]))
            }
        }
        return state
    }

    /// The number of items, in either layout.
    var itemCount: Int {
        sections.map { $0.reduce(0) { $0 + $1.items.count } } ?? items.count
    }

    /// Changes the item at `index` (counted across sections), if there is one.
    mutating func updateItem(at index: Int, _ change: (inout Item) -> Void) {
        guard index >= 0 else { return }
        guard sections != nil else {
            if items.indices.contains(index) { change(&items[index]) }
            return
        }
        var rest = index
        for section in sections!.indices {
            let count = sections![section].items.count
            if rest < count {
                change(&sections![section].items[rest])
                return
            }
            rest -= count
        }
    }

    /// Appends `item` (to the last section, or a new one when it is full).
    mutating func append(_ item: Item) {
        guard sections != nil else {
            items.append(item)
            return
        }
        if let last = sections!.indices.last, sections![last].items.count < Self.sectionSize {
            sections![last].items.append(item)
        } else {
            sections!.append(Section(id: item.id, items: [item]))
        }
    }

    /// Removes the item at `index` (counted across sections), if there is one.
    mutating func removeItem(at index: Int) {
        guard index >= 0 else { return }
        guard sections != nil else {
            if items.indices.contains(index) { items.remove(at: index) }
            return
        }
        var rest = index
        for section in sections!.indices {
            let count = sections![section].items.count
            if rest < count {
                sections![section].items.remove(at: rest)
                return
            }
            rest -= count
        }
    }
}

/// How `stress` lays its items out.
enum StressLayout: String {
    /// One flat array of items (a change copies the whole array).
    case flat
    /// Sections of 100 items (a change copies one section's items and the array of sections).
    case sections
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
        state.updateItem(at: index) { $0.value = value }
    case .write(let index, let text):
        state.updateItem(at: index) { $0.payload = text }
    case .append(let item):
        state.append(item)
    case .remove(let index):
        state.removeItem(at: index)
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
    let count = state.itemCount
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
