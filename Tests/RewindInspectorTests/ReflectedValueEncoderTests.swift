import Foundation
@testable import RewindInspector
import RewindWire
import Testing

/// Values that are not `Encodable` read like `Codable` ones on the timeline.
@Suite("Reflection encoding of non-Codable values")
struct ReflectedValueEncoderTests {
    /// The storage `@Observable` generates: `_name` properties and an `_$observationRegistrar`.
    final class ObservableShaped {
        var _title = "Milk"
        var _done = false
        var _$observationRegistrar = "registrar"
        var _tags: [String] = ["a"]
    }

    struct Nested {
        var _items: [Int]
        var lookup: [String: Double]
        var maybe: Int?
        var closure: () -> Void
    }

    enum Action {
        case reset
        case add(Int)
        case load(id: Int, completion: () -> Void)
    }

    final class Node {
        var name = "n"
        var next: Node?
    }

    private let encoder = ReflectedValueEncoder()

    @Test("@Observable storage `_name` is written `name`; the observation registrar is left out")
    func observableKeys() {
        #expect(encoder.encode(ObservableShaped()) == ["title": "Milk", "done": false, "tags": ["a"]])
    }

    @Test("structs, arrays, dictionaries, optionals and closures")
    func shapes() {
        let value = Nested(_items: [1, 2], lookup: ["x": 1.5], maybe: nil, closure: {})
        #expect(encoder.encode(value)
            == ["items": [1, 2], "lookup": ["x": 1.5], "maybe": .null, "closure": "(Function)"])
    }

    @Test("enum cases: a bare case is its name; a payload is keyed by the case")
    func enums() {
        #expect(encoder.encode(Action.reset) == "reset")
        #expect(encoder.encode(Action.add(3)) == ["add": 3])
        #expect(encoder.encode(Action.load(id: 4, completion: {})) == ["load": ["id": 4, "completion": "(Function)"]])
        #expect(encoder.encode(Result<Int, CocoaError>.success(2)) == ["success": 2])
    }

    @Test("a reference cycle is cut, naming the type")
    func cycles() {
        let node = Node()
        node.next = node
        #expect(encoder.encode(node) == ["name": "n", "next": "<cycle: Node>"])
    }

    @Test("a nested Encodable value keeps its own encoding; scalars of every width")
    func scalars() {
        #expect(encoder.encode(UInt64.max) == .string("18446744073709551615"))
        #expect(encoder.encode(Int8(-3)) == -3)
        #expect(encoder.encode(Double.nan) == "nan")
        #expect(encoder.encode(URL(string: "https://x.test/a")!) == "https://x.test/a")
        #expect(encoder.encode(["json": JSONValue.array([1])]) == ["json": [1]])
    }
}

/// A state whose `Codable` keys are `_name` (`@Observable` storage) decodes from JSON recorded with `name`.
@Suite("Decoding `name` into `_name` keys")
struct UnderscoredKeysTests {
    struct ObservableState: Codable, Equatable {
        var _count: Int
        var _child: Child
        struct Child: Codable, Equatable { var _label: String }
    }

    struct Plain: Codable, Equatable { var count: Int }

    @Test("`name` is read as `_name` at every depth, when the type needs it")
    func aliases() throws {
        let json: JSONValue = ["count": 3, "child": ["label": "x"]]
        #expect(try UnderscoredKeys.decode(ObservableState.self, from: json)
            == ObservableState(_count: 3, _child: .init(_label: "x")))
        #expect(try UnderscoredKeys.decode(Plain.self, from: ["count": 2]) == Plain(count: 2))
    }

    @Test("when neither form decodes, the error is the plain decoding's, naming the field")
    func firstErrorReported() {
        #expect {
            _ = try UnderscoredKeys.decode(Plain.self, from: ["count": "two"])
        } throws: { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["count"]
        }
    }
}

/// What a host offers is what the recorder advertises.
@Suite("Recorder capabilities")
struct RecorderCapabilityTests {
    struct State: Codable, Sendable { var n = 0 }
    enum Action: Codable, Sendable { case tap }
    struct OpaqueAction: Sendable { var run: @Sendable () -> Void }

    @Test("each ability offered, and only those, in protocol order, then batch and ack")
    func advertised() {
        var host = RecorderHost<State, Action>(executor: .queue(DispatchQueue(label: "t"))) { State() }
        #expect(host.capabilities == ["batch", "ack"])
        host.offerDispatch { _ in }
        #expect(host.capabilities == ["dispatch", "batch", "ack"])
        host.offerJump { _ in }
        host.offerReplay { initial, _, _ in initial }
        #expect(host.capabilities == ["jump", "dispatch", "replay", "batch", "ack"])
    }

    @Test("non-Codable actions: jump can still be offered, dispatch and replay cannot (they do not compile)")
    func opaqueActions() {
        var host = RecorderHost<State, OpaqueAction>(executor: .queue(DispatchQueue(label: "t"))) { State() }
        host.offerJump { _ in }
        #expect(host.capabilities == ["jump", "batch", "ack"])
    }

    @Test("a disabled recorder records nothing and starts nothing, but still says what the host offers")
    func disabled() {
        var configuration = InspectorConfiguration()
        configuration.disabled = true
        let host = RecorderHost<State, Action>(executor: .queue(DispatchQueue(label: "t"))) { State() }
        let recorder = Recorder(name: "off", initialState: State(), host: host, configuration: configuration)
        recorder.record(.tap, state: State())
        #expect(recorder.seq == 0)
        #expect(recorder.capabilities == ["batch", "ack"])
        #expect(recorder.deliveryCounts == InspectorDeliveryCounts())
    }
}
