import Foundation
import Rewind

/// The app state every benchmark uses: a list of sections of to-do-like items, sized to a given JSON size.
///
/// Its JSON is about 100 bytes per item, in sections of 100 items (≈ 10 kB each), so a 1 MB state holds ≈ 100
/// sections: a realistic tree rather than one flat array. A one-field change (``BenchAction/touch(section:item:value:)``)
/// sets one item's `value`.
///
/// Threading: a plain value; `Sendable`.
struct BenchState: Codable, Equatable, Sendable {
    /// One entry of a section.
    struct Item: Codable, Equatable, Sendable {
        var id: Int
        var title: String
        var done: Bool
        var value: Int
        var tags: [String]
    }

    /// A group of items.
    struct Section: Codable, Equatable, Sendable {
        var id: Int
        var name: String
        var items: [Item]
    }

    var sections: [Section] = []
    var selection = 0
    var filter = "all"

    /// Items per section.
    static let sectionSize = 100

    /// A state whose `JSONEncoder` encoding is about `bytes` long (at least one item).
    static func sized(_ bytes: Int) -> BenchState {
        let sample = item(0)
        let itemBytes = (try? JSONEncoder().encode(sample).count + 1) ?? 100
        let overhead = 60
        let count = max(1, (bytes - overhead) / itemBytes)
        var state = BenchState()
        var next = 0
        while next < count {
            let size = min(sectionSize, count - next)
            let section = state.sections.count
            state.sections.append(Section(
                id: section, name: "Section \(section)", items: (next..<(next + size)).map(item)))
            next += size
        }
        return state
    }

    private static func item(_ id: Int) -> Item {
        Item(id: id, title: "Item \(id): water the plants on the balcony", done: id % 3 == 0, value: id,
             tags: id % 2 == 0 ? ["home", "weekly"] : ["garden"])
    }

    /// How many items the state holds.
    var itemCount: Int { sections.reduce(0) { $0 + $1.items.count } }

    /// Applies `action`: `touch` sets one item's value, `select` the selection.
    mutating func apply(_ action: BenchAction) {
        switch action {
        case .touch(let section, let item, let value):
            if sections.indices.contains(section), sections[section].items.indices.contains(item) {
                sections[section].items[item].value = value
            }
        case .select(let index):
            selection = index
        }
    }

    /// The reducer of the benchmarks' stores: ``apply(_:)``, no effects.
    static let reducer = Reducer<BenchState, BenchAction> { state, action in
        state.apply(action)
        return .none
    }
}
