import Foundation
@testable import RewindInspector
import RewindWire
import Testing

/// `Codable` types synthesized from `@Observable`-style storage (`_name` stored properties) are recorded with the
/// keys `name` and decoded back from them.
@Suite("`_name` keys normalised both ways")
struct UnderscoredKeyEncodingTests {
    /// The shape `@Observable` / `@ObservableState` give a type: private `_name` storage behind computed `name`
    /// properties, so the synthesized `Codable` keys are `_count`, `_items`.
    struct MacroShaped: Codable, Sendable, Equatable {
        private var _count: Int
        private var _items: [Item]
        var count: Int { get { _count } set { _count = newValue } }
        var items: [Item] { get { _items } set { _items = newValue } }
        init(count: Int, items: [Item]) {
            _count = count
            _items = items
        }
    }

    struct Item: Codable, Sendable, Equatable {
        private var _title: String
        var title: String { _title }
        init(title: String) { _title = title }
    }

    enum Action: Codable, Sendable, Equatable { case add(Int), rename(String, to: String) }

    @Test("a Codable enum's unlabelled payloads keep their synthesized keys `_0`, `_1`")
    func enumPayloadsKeepTheirKeys() throws {
        let coding = RecorderCoding<Int, Action>.automatic
        #expect(try coding.encodeAction(.add(2)) == ["add": ["_0": 2]])
        #expect(try coding.encodeAction(.rename("a", to: "b")) == ["rename": ["_0": "a", "to": "b"]])
    }

    @Test("the automatic coding records `_name` keys as `name`, at every depth, and decodes them back")
    func roundTrip() throws {
        let state = MacroShaped(count: 3, items: [Item(title: "milk")])
        let encoded = try RecorderCoding<MacroShaped, Int>.automatic.encodeState(state)
        #expect(encoded == ["count": 3, "items": [["title": "milk"]]])
        #expect(encoded.objectValue?.keys == ["count", "items"])
        let decoded = try RecorderCoding<MacroShaped, Int>.stateDecoder()(encoded)
        #expect(decoded == state)
    }
}
