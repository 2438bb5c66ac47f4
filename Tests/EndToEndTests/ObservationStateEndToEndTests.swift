import Dispatch
import Foundation
import RewindDaemon
import RewindSessionFile
@testable import RewindInspector
import RewindTestSupport
import RewindWire
import Testing

/// Issue 30, part 3: a TCA app's state, laid out as `@ObservableState` lays it out (each property stored as `_name`
/// beside an `_$observationRegistrar` holding class instances, renewed on every change; arrays of observable
/// children), recorded through the ``Recorder`` into a real daemon: no registrar and no `_name` key reaches the
/// record, the encoding memo stays on, and a jump decodes the recorded state back into the app.
@Suite("An @ObservableState-shaped state end to end", .serialized)
struct ObservationStateEndToEndTests {
    /// TCA's `ObservationStateRegistrar` as far as recording goes: an identity class renewed by `_$willModify()`,
    /// equal to every other, encoding nothing, decoding from anything.
    struct Registrar: Codable, Equatable, Sendable {
        final class Identity: Sendable {}
        private(set) var identity = Identity()
        mutating func willModify() { identity = Identity() }
        init() {}
        init(from decoder: any Decoder) throws { self.init() }
        func encode(to encoder: any Encoder) throws {}
        static func == (_: Registrar, _: Registrar) -> Bool { true }
    }

    struct Row: Codable, Equatable, Sendable {
        var _id: Int
        var _title: String
        var _$observationRegistrar = Registrar()
        var title: String { get { _title } set { _$observationRegistrar.willModify(); _title = newValue } }
        init(id: Int, title: String) {
            _id = id
            _title = title
        }
    }

    struct ListFeature: Codable, Equatable, Sendable {
        var _rows: [Row]
        var _count: Int
        var _$observationRegistrar = Registrar()
        var rows: [Row] { get { _rows } set { _$observationRegistrar.willModify(); _rows = newValue } }
        var count: Int { get { _count } set { _$observationRegistrar.willModify(); _count = newValue } }
        init(rows: [Row]) {
            _rows = rows
            _count = 0
        }
    }

    enum Action: Codable, Sendable { case rename(Int), count }

    /// True when some object key anywhere in `json` starts with `_`.
    static func hasUnderscoredKey(_ json: JSONValue) -> Bool {
        switch json {
        case .object(let object): return object.contains { $0.key.hasPrefix("_") || hasUnderscoredKey($0.value) }
        case .array(let items): return items.contains(where: hasUnderscoredKey)
        default: return false
        }
    }

    @Test("recorded without the registrar and `_name` keys, with the memo on; a jump decodes the state back")
    func recordedMemoisedAndJumpable() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let store = RecorderEndToEndTests.QueueStore(ListFeature(rows: (0..<400).map { Row(id: $0, title: "row \($0)") }))
        var host = RecorderHost<ListFeature, Action>(executor: .queue(store.queue)) { store.state }
        host.offerJump { store.set($0) }
        var configuration = InspectorConfiguration()
        configuration.url = harness.url
        configuration.memoMinimumStateBytes = 0
        let recorder = Recorder(name: "observable-state", initialState: store.state, host: host,
                                configuration: configuration)
        let count = 200
        var expected: [Int: (count: Int, title: String)] = [:]
        for n in 1...count {
            store.queue.sync {
                var state = store.state
                if n % 2 == 0 { state.count += 1 } else { state.rows[n].title = "renamed \(n)" }
                store.set(state)
                recorder.record(n % 2 == 0 ? .count : .rename(n), state: state)
                expected[n] = (state.count, state.rows[n].title)
            }
            if n % 20 == 0 { usleep(2_000) }
        }
        #expect(recorder.waitUntilDelivered(timeout: TestTime.seconds(20)))
        let session = try #require(harness.waitForSession(events: Int64(count), app: "observable-state"))
        session.flush()
        let reader = try harness.daemon.store.openSession(session.id)
        for index in [0, 1, 2, 99, 100, Int64(count)] {
            let state = try reader.state(at: index)
            #expect(!Self.hasUnderscoredKey(state), "event \(index): \(String(describing: state["rows"]?[0]))")
            if index > 0, let truth = expected[Int(index)] {
                #expect(state["count"] == .int(Int64(truth.count)))
                #expect(state["rows"]?[Int(index)]?["title"] == .string(truth.title))
            }
        }
        #expect(try reader.state(at: 1)["rows"]?[1] == ["id": 1, "title": "renamed 1"])
        let statistics = recorder.memoStatistics
        #expect(statistics.encodings > count / 2, "the memo encoded \(statistics.encodings) of \(count) states")
        #expect(!statistics.failedCheck)

        let jumped = harness.daemon.waitFor { harness.daemon.jump(session: session.id, to: 1, completion: $0) }
        #expect(throws: Never.self) { try jumped.get() }
        let after = store.snapshot
        #expect(after.count == 0)
        #expect(after.rows[1].title == "renamed 1")
        #expect(after.rows[3].title == "row 3")
        #expect(after.rows.count == 400)
    }
}
