import Foundation
@_spi(Benchmarks) @testable import RewindInspector
import RewindWire
import Testing

/// States laid out as TCA's `@ObservableState` (and Swift's `@Observable`) lay them out — each property stored as
/// `_name` beside an `_$observationRegistrar` that holds class instances and is renewed on every change — are recorded
/// as they read in code: keys `name`, no registrar; the encoding memo works on them; and they decode back.
@Suite("Observation storage: recorded as the properties, memoised, decoded back")
struct ObservationStorageEncodingTests {
    // MARK: The shape the macros generate

    /// Stands for TCA's `ObservationStateRegistrar`: the state's identity (a class instance, renewed by every change,
    /// as `_$willModify()` does) and nothing else worth recording; equal to every other, encodes nothing, decodes
    /// from anything.
    struct Registrar: Codable, Equatable, Sendable {
        final class Identity: Sendable {}
        private(set) var identity = Identity()
        mutating func willModify() { identity = Identity() }
        init() {}
        init(from decoder: any Decoder) throws { self.init() }
        func encode(to encoder: any Encoder) throws {}
        static func == (_: Registrar, _: Registrar) -> Bool { true }
    }

    struct Todo: Codable, Equatable, Sendable {
        var _title: String
        var _done: Bool
        var _tags: [String]
        var _$observationRegistrar = Registrar()
        var title: String { get { _title } set { _$observationRegistrar.willModify(); _title = newValue } }
        var done: Bool { get { _done } set { _$observationRegistrar.willModify(); _done = newValue } }
        var tags: [String] { get { _tags } set { _$observationRegistrar.willModify(); _tags = newValue } }
        init(title: String, done: Bool = false, tags: [String] = []) {
            _title = title
            _done = done
            _tags = tags
        }
    }

    struct Section: Codable, Equatable, Sendable {
        var _name: String
        var _todos: [Todo]
        var _$observationRegistrar = Registrar()
        var todos: [Todo] { get { _todos } set { _$observationRegistrar.willModify(); _todos = newValue } }
        init(name: String, todos: [Todo]) {
            _name = name
            _todos = todos
        }
    }

    struct Feature: Codable, Equatable, Sendable {
        var _sections: [Section]
        var _counter: Int
        var _filter: String?
        var _$observationRegistrar = Registrar()
        var sections: [Section] { get { _sections } set { _$observationRegistrar.willModify(); _sections = newValue } }
        var counter: Int { get { _counter } set { _$observationRegistrar.willModify(); _counter = newValue } }
        var filter: String? { get { _filter } set { _$observationRegistrar.willModify(); _filter = newValue } }
        init(sections: [Section]) {
            _sections = sections
            _counter = 0
            _filter = nil
        }
    }

    static func feature(sections: Int, todos: Int) -> Feature {
        Feature(sections: (0..<sections).map { s in
            Section(name: "s\(s)", todos: (0..<todos).map { Todo(title: "t\(s).\($0)", tags: ["a"]) })
        })
    }

    /// True when some object key anywhere in `json` starts with `_`.
    static func hasUnderscoredKey(_ json: JSONValue) -> Bool {
        switch json {
        case .object(let object): return object.contains { $0.key.hasPrefix("_") || hasUnderscoredKey($0.value) }
        case .array(let items): return items.contains(where: hasUnderscoredKey)
        default: return false
        }
    }

    // MARK: Specifications

    @Test("recorded with the keys `name` and without the registrar, at every depth")
    func recordedAsTheProperties() throws {
        let state = Self.feature(sections: 2, todos: 2)
        let encoded = try RecorderCoding<Feature, Int>.automatic.encodeState(state)
        #expect(!Self.hasUnderscoredKey(encoded), "\(encoded)")
        #expect(encoded.objectValue?.keys == ["sections", "counter"])
        #expect(encoded["sections"]?[1]?["todos"]?[0] == ["title": "t1.0", "done": false, "tags": ["a"]])
    }

    @Test("a key `name` beside `_name` keeps both; `_$` bookkeeping is left out; `_` alone and enum payloads' `_0` stay")
    func collisionsAndBookkeeping() throws {
        let json: JSONValue = ["_id": 1, "id": 2, "_$id": "x", "_": true, "plain": ["_a": [["_b": 1, "_$r": [:]]]]]
        let encoder = JSONValueEncoder(keyStyle: .observationStorage)
        #expect(try encoder.encode(json) == json, "a JSONValue is inserted as it is")
        struct Keys: Encodable {
            let values: [String: JSONValue]
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: DynamicKey.self)
                for (key, value) in values.sorted(by: { $0.key < $1.key }) {
                    try container.encode(value, forKey: DynamicKey(stringValue: key)!)
                }
            }
        }
        struct DynamicKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        let encoded = try encoder.encode(Keys(values: ["_id": 1, "id": 2, "_$id": "x", "_": true, "_0": 3, "_b": 4]))
        #expect(encoded == ["_": true, "_0": 3, "_id": 1, "b": 4, "id": 2])
        #expect(try encoder.encode(["_x": 1, "y": 2]) == ["x": 1, "y": 2], "string-keyed dictionaries too")
    }

    @Test("decoded back from the recording: `name` read as `_name`, the registrar put back at every depth")
    func decodedBack() throws {
        let state = Self.feature(sections: 3, todos: 4)
        let encoded = try RecorderCoding<Feature, Int>.automatic.encodeState(state)
        let decoded = try RecorderCoding<Feature, Int>.stateDecoder()(encoded)
        #expect(decoded == state)
        #expect(decoded.sections[2].todos[3].title == "t2.3")
        // What does not decode still names the first problem.
        #expect(throws: DecodingError.self) {
            _ = try RecorderCoding<Feature, Int>.stateDecoder()(["sections": "none", "counter": 1])
        }
    }

    @Test("the memo keeps working: every tree equals a full encoding, patches rebuild each state, collections are reused")
    func memoOnObservationShapedStates() throws {
        let encoder = JSONValueEncoder(keyStyle: .observationStorage)
        let memo = StateEncodingMemo(minimumCount: 4, encoder: encoder)
        var state = Self.feature(sections: 8, todos: 30)
        var rng = StateEncodingMemoPropertyTests.SplitMix(state: 7)
        var previous = try memo.encode(state)
        #expect(previous == (try encoder.encode(state)))
        for step in 0..<300 {
            let s = Int.random(in: 0..<state.sections.count, using: &rng)
            let t = Int.random(in: 0..<state.sections[s].todos.count, using: &rng)
            switch Int.random(in: 0..<6, using: &rng) {
            case 0: state.counter += 1
            case 1: state.sections[s].todos[t].title = "n\(step)"
            case 2: state.sections[s].todos[t].done.toggle()
            case 3: state.sections[s].todos[t].tags.append("x\(step)")
            case 4: state.sections[s].todos.append(Todo(title: "new \(step)"))
            default: state.filter = state.filter == nil ? "f\(step)" : nil
            }
            let tree = try memo.encode(state)
            let fresh = try encoder.encode(state)
            try #require(tree == fresh, "step \(step): the memo's tree differs from a full encoding")
            try #require(try JSONPatch.diff(from: previous, to: tree).apply(to: previous) == fresh)
            previous = tree
        }
        #expect(memo.reusedWhole + memo.reusedElementwise > 300, "reused \(memo.reusedWhole) whole, \(memo.reusedElementwise) by element")
        #expect(memo.encodedFully < 60, "\(memo.encodedFully) collections encoded in full")
    }

    @Test("the state encoder keeps the memo on for such a state (its first memo tree equals the recorder's encoding)")
    func stateEncoderKeepsTheMemo() throws {
        var configuration = InspectorConfiguration()
        configuration.memoMinimumStateBytes = 0
        var encoder = StateEncoder<Feature, Int>(coding: .automatic, redactor: Redactor(paths: []),
                                                 configuration: configuration, stateType: "Feature")
        defer { encoder.stop() }
        var state = Self.feature(sections: 4, todos: 20)
        _ = encoder.prepare(state, now: 0)
        for step in 0..<20 {
            state.sections[step % 4].todos[step].title = "changed \(step)"
            let tree = encoder.encodeForSending(state)
            #expect(tree == (try RecorderCoding<Feature, Int>.automatic.encodeState(state)))
        }
        #expect(encoder.statistics.encodings == 20)
        #expect(!encoder.statistics.failedCheck)
    }
}
