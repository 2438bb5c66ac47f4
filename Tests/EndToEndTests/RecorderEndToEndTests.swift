import Dispatch
import Foundation
import RewindDaemon
import RewindSessionFile
import RewindInspector
import RewindTestSupport
import RewindWire
import Testing

/// The store-neutral ``Recorder`` with hosts that are not `Rewind.Store`s, in this process, streaming into a real
/// daemon: what each host offers is what `hello` advertises and what the daemon lets the timeline do.
@Suite("Recorder end to end", .serialized)
struct RecorderEndToEndTests {
    /// A hand-written store on its own serial queue: the shape of any app's model.
    final class QueueStore<State: Sendable>: @unchecked Sendable {  // state touched only on `queue`
        let queue = DispatchQueue(label: "recorder-test-store")
        private var stored: State
        init(_ state: State) { stored = state }
        var state: State { stored }
        func set(_ state: State) { stored = state }
        /// The state read on the store's queue, from another thread.
        var snapshot: State { queue.sync { stored } }
    }

    struct CodableState: Codable, Sendable, Equatable { var count: Int }
    enum CodableAction: Codable, Sendable, Equatable { case add(Int) }

    /// Not `Codable`: a closure and an error in the payloads.
    enum OpaqueAction: Sendable {
        case add(Int)
        case load(completion: @Sendable () -> Void)
        case loaded(Result<Int, MyError>)
    }
    struct MyError: Error, Sendable {}

    /// Not `Codable`, with `@Observable`-style storage names.
    struct OpaqueState: Sendable {
        var _count: Int
        var _title: String
        var callback: (@Sendable () -> Void)?
    }

    /// A `Codable` state shaped like the storage `@Observable` / `@ObservableState` generate: private `_name`
    /// stored properties behind computed `name` ones, so its synthesized keys are `_count` and `_title`.
    struct MacroShapedState: Codable, Sendable, Equatable {
        private var _count: Int
        private var _title: String
        var count: Int { get { _count } set { _count = newValue } }
        var title: String { get { _title } set { _title = newValue } }
        init(count: Int, title: String) {
            _count = count
            _title = title
        }
    }

    @Test("a host that does not time its reducer records the time as unknown, not 0ns; a measured time is kept")
    func unmeasuredReducerTimeIsUnknown() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let store = QueueStore(CodableState(count: 0))
        let host = RecorderHost<CodableState, CodableAction>(executor: .queue(store.queue)) { store.state }
        var configuration = InspectorConfiguration()
        configuration.url = harness.url
        let recorder = Recorder(name: "untimed", initialState: store.state, host: host, configuration: configuration)
        store.queue.sync {
            store.set(CodableState(count: 1))
            recorder.record(.add(1), state: store.state)
            store.set(CodableState(count: 3))
            recorder.record(.add(2), state: store.state, reducerNanos: 2_500)
        }
        let session = try #require(harness.waitForSession(events: 2, app: "untimed"))
        session.flush()
        let events = try harness.daemon.store.openSession(session.id).events(1...2)
        #expect(events.map(\.reducerMicros) == [nil, 2.5])
    }

    @Test("a Codable state with `_name` storage is recorded with the keys `name`, and a jump decodes them back")
    func underscoredStorageRecordsPlainNamesAndJumps() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let store = QueueStore(MacroShapedState(count: 0, title: "start"))
        var host = RecorderHost<MacroShapedState, CodableAction>(executor: .queue(store.queue)) { store.state }
        host.offerJump { store.set($0) }
        var configuration = InspectorConfiguration()
        configuration.url = harness.url
        let recorder = Recorder(name: "observable-shaped", initialState: store.state, host: host,
                                configuration: configuration)
        for n in 1...3 {
            store.queue.sync {
                var state = store.state
                state.count += n
                state.title = "after \(n)"
                store.set(state)
                recorder.record(.add(n), state: state)
            }
        }
        let session = try #require(harness.waitForSession(events: 3, app: "observable-shaped"))
        #expect(try harness.lastRecordedState(session) == ["count": 6, "title": "after 3"])
        session.flush()
        let reader = try harness.daemon.store.openSession(session.id)
        #expect(try reader.state(at: 0) == ["count": 0, "title": "start"])
        #expect(try reader.state(at: 1) == ["count": 1, "title": "after 1"])

        let jumped = harness.daemon.waitFor { harness.daemon.jump(session: session.id, to: 1, completion: $0) }
        #expect(throws: Never.self) { try jumped.get() }
        #expect(store.snapshot == MacroShapedState(count: 1, title: "after 1"))
        withExtendedLifetime(recorder) {}
    }

    @Test("a host that offers jump only advertises jump; dispatch and replay are refused by the daemon naming the missing ability")
    func capabilitiesFollowTheHost() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let store = QueueStore(CodableState(count: 0))
        var host = RecorderHost<CodableState, CodableAction>(executor: .queue(store.queue)) { store.state }
        host.offerJump { store.set($0) }
        #expect(host.capabilities == ["jump", "batch", "ack"])
        var configuration = InspectorConfiguration()
        configuration.url = harness.url
        let recorder = Recorder(name: "jump-only", initialState: store.state, host: host,
                                configuration: configuration)
        for n in 1...3 {
            store.queue.sync {
                store.set(CodableState(count: store.state.count + n))
                recorder.record(.add(n), state: store.state)
            }
        }
        let session = try #require(harness.waitForSession(events: 3, app: "jump-only"))
        #expect(session.capabilities == ["jump", "batch", "ack"])

        let jumped = harness.daemon.waitFor { harness.daemon.jump(session: session.id, to: 1, completion: $0) }
        #expect(throws: Never.self) { try jumped.get() }
        #expect(store.snapshot == CodableState(count: 1))

        let dispatched = harness.daemon.waitFor {
            harness.daemon.dispatch(session: session.id, action: ["add": ["_0": 1]], completion: $0)
        }
        guard case .failure(let refusal) = dispatched else {
            Issue.record("dispatch was not refused: \(dispatched)")
            return
        }
        #expect(refusal.code == .commandFailed)
        #expect(refusal.description.contains("does not offer 'dispatch'"), "\(refusal)")
        #expect(refusal.description.contains("it offers 'jump'"), "\(refusal)")

        let replayed = harness.daemon.waitFor {
            harness.daemon.replay(session: session.id, from: 1, to: 2, into: session.id, completion: $0)
        }
        guard case .failure(let replayRefusal) = replayed else {
            Issue.record("replay was not refused: \(replayed)")
            return
        }
        #expect(replayRefusal.description.contains("does not offer 'replay'"), "\(replayRefusal)")
        let skipped = harness.daemon.waitForOutcome { harness.daemon.skip(session: session.id, index: 2, completion: $0) }
        guard case .failure(let skipRefusal) = skipped else {
            Issue.record("skip was not refused")
            return
        }
        #expect(skipRefusal.description.contains("cannot skip"), "\(skipRefusal)")
        #expect(skipRefusal.description.contains("does not offer 'replay'"), "\(skipRefusal)")
        withExtendedLifetime(recorder) {}
    }

    @Test("a read-only host (nothing offered) is recorded, and the daemon refuses jump with a clear error")
    func readOnlyHostRefusesJump() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let store = QueueStore(CodableState(count: 0))
        let host = RecorderHost<CodableState, CodableAction>(executor: .queue(store.queue)) { store.state }
        var configuration = InspectorConfiguration()
        configuration.url = harness.url
        let recorder = Recorder(name: "read-only", initialState: store.state, host: host, configuration: configuration)
        store.queue.sync {
            store.set(CodableState(count: 5))
            recorder.record(.add(5), state: store.state)
        }
        let session = try #require(harness.waitForSession(events: 1, app: "read-only"))
        #expect(session.capabilities == ["batch", "ack"])
        #expect(try harness.lastRecordedState(session) == ["count": 5])
        let jumped = harness.daemon.waitFor { harness.daemon.jump(session: session.id, to: 0, completion: $0) }
        guard case .failure(let refusal) = jumped else {
            Issue.record("jump was not refused: \(jumped)")
            return
        }
        #expect(refusal.description == "cannot jump in session \(session.id): its app does not offer 'jump' (it "
            + "offers no command: it is watched read-only; see docs/INTEGRATIONS.md)")
        #expect(store.snapshot == CodableState(count: 5))
        withExtendedLifetime(recorder) {}
    }

    @Test("a host offering replay passes rewind verify: the recorded states are what its reducer computes again")
    func replayHostVerifies() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let store = QueueStore(CodableState(count: 0))
        let reduce: (inout CodableState, CodableAction) -> Void = { state, action in
            if case .add(let n) = action { state.count += n }
        }
        var host = RecorderHost<CodableState, CodableAction>(executor: .queue(store.queue)) { store.state }
        host.offerJump { store.set($0) }
        host.offerReplay(reducing: reduce, replace: { store.set($0) })
        #expect(host.capabilities == ["jump", "replay", "batch", "ack"])
        var configuration = InspectorConfiguration()
        configuration.url = harness.url
        let recorder = Recorder(name: "replaying", initialState: store.state, host: host, configuration: configuration)
        for n in [2, 3, 4] {
            store.queue.sync {
                var state = store.state
                reduce(&state, .add(n))
                store.set(state)
                recorder.record(.add(n), state: state)
            }
        }
        let session = try #require(harness.waitForSession(events: 3, app: "replaying"))
        session.flush()
        let reader = try harness.daemon.store.openSession(session.id)
        let outcome = try SessionVerifier(reader: reader).verify(replay: { state, actions in
            try harness.daemon.waitFor(timeout: TestTime.seconds(10)) {
                harness.daemon.replay(state: state, actions: actions, into: session.id, completion: $0)
            }.get().states ?? []
        })
        #expect(outcome == .verified(events: 3))
        withExtendedLifetime(recorder) {}
    }

    @Test("non-Codable actions and state are recorded with case-path labels and reflected payloads, `_name` read as `name`")
    func nonCodableTypesAreWatched() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let store = QueueStore(OpaqueState(_count: 0, _title: "a", callback: nil))
        let host = RecorderHost<OpaqueState, OpaqueAction>(executor: .queue(store.queue)) { store.state }
        var configuration = InspectorConfiguration()
        configuration.url = harness.url
        let recorder = Recorder(name: "opaque", initialState: store.state, host: host, configuration: configuration)
        #expect(recorder.capabilities == ["batch", "ack"])
        let actions: [OpaqueAction] = [.add(2), .load(completion: {}), .loaded(.failure(MyError())), .loaded(.success(7))]
        for action in actions {
            store.queue.sync {
                var state = store.state
                if case .add(let n) = action { state._count += n }
                if case .loaded(.success(let n)) = action { state._count = n; state._title = "loaded" }
                store.set(state)
                recorder.record(action, state: state)
            }
        }
        let session = try #require(harness.waitForSession(events: 4, app: "opaque"))
        session.flush()
        let reader = try harness.daemon.store.openSession(session.id)
        let events = try reader.events(1...4)
        #expect(events.map(\.label) == ["add", "load", "loaded/failure", "loaded/success"])
        #expect(events[0].action == ["add": 2])
        #expect(events[1].action == ["load": ["completion": "(Function)"]])
        #expect(try reader.state(at: 0) == ["count": 0, "title": "a", "callback": .null])
        #expect(try reader.state(at: 4) == ["count": 7, "title": "loaded", "callback": .null])
        withExtendedLifetime(recorder) {}
    }
}
