import Foundation
@testable import RewindInspector
import RewindWire
import Testing

/// Issue 21 end to end: the inspector's pipeline encoding states incrementally (the encoding memo), streaming to a
/// real daemon in this process. The states the daemon records (rebuilt from the patches it received) must be the
/// app's states; a memo that a type fools is caught by the periodic comparison; an idle pipeline parks.
@Suite("Inspector pipeline with the encoding memo, against a real daemon", .serialized)
struct MemoPipelineEndToEndTests {
    struct Item: Codable, Equatable, Sendable {
        var id: Int
        var title: String
        var tags: [String]
        var done: Bool
    }

    struct AppState: Codable, Equatable, Sendable {
        var items: [Item]
        var index: [String: Int]
        var flags: Set<String>
        var counter: Int
        var note: String?
    }

    /// A value whose encoding reads a global (so more than the value): the memo cannot see it change.
    struct Offset: Codable, Equatable, Sendable {
        var value: Int
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value + GlobalOffset.current)
        }
    }

    struct FoolingState: Codable, Sendable {
        var offsets: [Offset]
        var counter: Int
    }

    /// The global `Offset` reads.
    enum GlobalOffset {
        private static let lock = NSLock()
        nonisolated(unsafe) private static var value = 0
        static var current: Int {
            get { lock.lock(); defer { lock.unlock() }; return value }
            set { lock.lock(); value = newValue; lock.unlock() }
        }
    }

    private func pipeline<State: Codable & Sendable>(
        _ harness: DaemonHarness, name: String, initial: State, configure: (inout InspectorConfiguration) -> Void
    ) -> (InspectorPipeline<State, Int>, Outbox<State, Int>) {
        var configuration = InspectorConfiguration()
        configuration.url = harness.url
        configure(&configuration)
        let outbox = Outbox<State, Int>(stateBudgetBytes: configuration.outboxBudgetBytes,
                                        actionBudgetBytes: configuration.outboxActionBudgetBytes)
        let pipeline = InspectorPipeline<State, Int>(
            outbox: outbox, transport: LibWebSocketsTransport(), configuration: configuration,
            identity: AppIdentity(name: name, instance: "memo-\(UUID().uuidString)"),
            stateType: String(reflecting: State.self), initialState: initial, coding: .codable,
            capabilities: [], onCommand: { _ in }, onSnapshotWanted: {})
        pipeline.start()
        return (pipeline, outbox)
    }

    private func waitDelivered<S, A>(_ pipeline: InspectorPipeline<S, A>) -> Bool {
        let deadline = Date(timeIntervalSinceNow: TestTime.seconds(20))
        while Date() < deadline {
            if pipeline.hasDeliveredEverything { return true }
            usleep(5_000)
        }
        return false
    }

    @Test("every recorded state equals a full encoding of the app's state after 600 random edits with the memo on")
    func recordedStatesAreTheAppsStates() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        var state = AppState(items: (0..<200).map { Item(id: $0, title: "t\($0)", tags: ["a", "b"], done: false) },
                             index: Dictionary(uniqueKeysWithValues: (0..<50).map { ("k\($0)", $0) }),
                             flags: ["x", "y"], counter: 0, note: nil)
        let (pipeline, outbox) = pipeline(harness, name: "memo-truth", initial: state) {
            $0.memoMinimumStateBytes = 0
            $0.memoCheckInterval = 1_000_000   // no correction by the check: the memo alone must be right
        }
        defer { pipeline.stop() }
        var rng = SystemRandomNumberGenerator()
        var expected: [JSONValue] = []
        let count = 600
        for seq in 1...count {
            switch Int.random(in: 0..<8, using: &rng) {
            case 0: state.counter += 1
            case 1: state.items[Int.random(in: 0..<state.items.count, using: &rng)].title = "n\(seq)"
            case 2: state.items[Int.random(in: 0..<state.items.count, using: &rng)].tags.append("t\(seq)")
            case 3: state.items.append(Item(id: seq, title: "new", tags: [], done: true))
            case 4: state.items.remove(at: Int.random(in: 0..<state.items.count, using: &rng))
            case 5: state.index["k\(Int.random(in: 0..<80, using: &rng))"] = seq
            case 6: state.flags.insert("f\(seq % 20)")
            default: state.note = state.note == nil ? "note \(seq)" : nil
            }
            expected.append(try JSONValueEncoder().encode(state))
            outbox.push(seq: UInt64(seq), finishedNanos: DispatchClock.nanoseconds(), action: seq, source: nil,
                        state: state, reducerNanos: 0)
            if seq % 50 == 0 { usleep(2_000) }   // let the pipeline take states one by one, not coalesce
        }
        #expect(waitDelivered(pipeline))
        let session = try #require(harness.waitForSession(events: Int64(count), app: "memo-truth"))
        harness.daemon.waitUntilIdle()
        session.flush()
        let reader = try harness.daemon.store.openSession(session.id)
        var mismatches: [Int] = []
        var coalesced = false
        for index in 1...count {
            let event = try reader.event(at: Int64(index))
            if event.action == nil { coalesced = true; continue }
            if try reader.state(at: Int64(index)) != expected[index - 1] { mismatches.append(index) }
        }
        #expect(mismatches.isEmpty, "recorded states differ from the app's at events \(mismatches.prefix(10))")
        let statistics = pipeline.memoStatisticsSnapshot
        #expect(statistics.encodings > count / 2, "the memo was used for \(statistics.encodings) states (coalesced: \(coalesced))")
        #expect(!statistics.failedCheck)
    }

    @Test("a type whose encoding reads a global fools the memo; the periodic check sends the true state and turns it off")
    func checkCatchesAFoolingType() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        GlobalOffset.current = 0
        var state = FoolingState(offsets: (0..<20).map { Offset(value: $0) }, counter: 0)
        let (pipeline, outbox) = pipeline(harness, name: "memo-fooled", initial: state) {
            $0.memoMinimumStateBytes = 0
            $0.memoCheckInterval = 4
        }
        defer { pipeline.stop() }
        var expected: [JSONValue] = []
        for seq in 1...12 {
            state.counter += 1
            if seq == 2 { GlobalOffset.current = 100 }   // the offsets' encoding changes; their storage does not
            expected.append(try JSONValueEncoder().encode(state))
            outbox.push(seq: UInt64(seq), finishedNanos: DispatchClock.nanoseconds(), action: seq, source: nil,
                        state: state, reducerNanos: 0)
            usleep(20_000)   // one state at a time
        }
        #expect(waitDelivered(pipeline))
        let session = try #require(harness.waitForSession(events: 12, app: "memo-fooled"))
        let statistics = pipeline.memoStatisticsSnapshot
        #expect(statistics.failedCheck, "the check did not find the memo wrong")
        let last = try harness.lastRecordedState(session) { $0 == expected[11] }
        #expect(last == expected[11], "the record did not come back to the true state")
        GlobalOffset.current = 0
    }

    @Test("an idle pipeline parks: at most 2 wake-ups a second, and the next push wakes it at once")
    func idlePipelineParks() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let (pipeline, outbox) = pipeline(harness, name: "memo-idle", initial: 0) { _ in }
        defer { pipeline.stop() }
        outbox.push(seq: 1, finishedNanos: DispatchClock.nanoseconds(), action: 1, source: nil, state: 1, reducerNanos: 0)
        #expect(waitDelivered(pipeline))
        Thread.sleep(forTimeInterval: 0.6)   // quiet for longer than PollSchedule.parkAfter
        let before = pipeline.loopIterations
        Thread.sleep(forTimeInterval: 3)
        let wakeUps = pipeline.loopIterations - before
        #expect(wakeUps <= 6, "\(wakeUps) wake-ups in 3 s while idle")
        let started = Date()
        outbox.push(seq: 2, finishedNanos: DispatchClock.nanoseconds(), action: 2, source: nil, state: 2, reducerNanos: 0)
        #expect(harness.waitForSession(events: 2, app: "memo-idle", timeout: 5) != nil)
        #expect(Date().timeIntervalSince(started) < TestTime.seconds(0.9), "the push did not wake the parked pipeline")
        #expect(outbox.parkedWakeUps >= 1)
    }
}
