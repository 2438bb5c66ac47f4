import Foundation
import Rewind
import RewindDaemon
import RewindSessionFile
import RewindInspector
import RewindTestSupport
import RewindWire
import Testing

/// A burst far faster than the daemon records: the outbox gives up states, never actions (issue 18, "Actions lost
/// while the record says only states were lost"). The same shape as the 1,000,000-action burst of the benchmarks
/// (`ingest/burst`), made small enough for a debug build: a store with a 1 kB state, one-field actions dispatched
/// back to back, a real daemon in this process.
@Suite("Burst delivery", .serialized)
@MainActor
struct BurstDeliveryTests {
    struct Item: Codable, Equatable, Sendable {
        var id: Int
        var value: Int
        var payload: String
    }

    struct BurstState: Codable, Equatable, Sendable {
        var items: [Item]
        var counter = 0
    }

    enum BurstAction: Codable, Equatable, Sendable {
        case touch(index: Int, value: Int)
    }

    static let reducer = Reducer<BurstState, BurstAction> { state, action in
        switch action {
        case .touch(let index, let value): state.items[index].value = value
        }
        state.counter += 1
        return .none
    }

    /// About 1 kB of JSON, like `stress --state-bytes 1000`.
    static var kilobyteState: BurstState {
        BurstState(items: (0..<10).map { Item(id: $0, value: 0, payload: String(repeating: "x", count: 60)) })
    }

    /// Every action of the session's main line, and the total the `lost` rows count, once the daemon has accounted
    /// for `expected` actions (or the bounded wait ended).
    static func recorded(_ harness: DaemonHarness, _ session: LiveSession, expected: Int,
                         timeout: Double = 30) throws -> (actions: [RecordedEvent], lost: Int64, dropped: Int) {
        let deadline = Date(timeIntervalSinceNow: TestTime.seconds(timeout))
        while true {
            harness.daemon.waitUntilIdle()
            session.flush()
            let reader = try harness.daemon.store.openSession(session.id)
            let events = reader.eventCount > 0 ? try reader.events(1...reader.eventCount) : []
            let actions = events.filter { $0.kind == .action }
            let lost = events.filter { $0.kind == .dropped && $0.label == "lost" }
                .reduce(Int64(0)) { $0 + ($1.action?["actionsLost"]?.int64Value ?? 0) }
            let dropped = events.filter { $0.kind == .dropped && $0.label == "dropped" }.count
            if actions.count + Int(lost) >= expected || Date() >= deadline { return (actions, lost, dropped) }
            usleep(20_000)
        }
    }

    @Test("a burst with a 1 kB state far beyond the state budget loses no action; states are coalesced instead")
    func burstKeepsEveryAction() async throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        var configuration = InspectorConfiguration()
        configuration.url = harness.url
        // A small budget brings the pressure of a million-action burst into a debug build's few seconds: room for
        // about 3,000 of its 1 kB states (a quarter of what delivery leaves), and for all 60,000 actions (about 9 MB)
        // however slowly the pipeline drains them (under a sanitizer).
        configuration.outboxBudgetBytes = 16 << 20
        let count = 60_000
        let store = Store(initialState: Self.kilobyteState, reducer: Self.reducer,
                          middleware: [Inspector.middleware(name: "burst", configuration: configuration)])
        for number in 0..<count {
            store.dispatch(.touch(index: number % 10, value: number))
            if number % 8_192 == 0 { await Task.yield() }
        }
        #expect(await Task.detached { Inspector.waitUntilDelivered(app: "burst", timeout: TestTime.seconds(60)) }.value)
        let session = try #require(harness.waitForSession(app: "burst"))
        let (actions, lost, dropped) = try Self.recorded(harness, session, expected: count)
        #expect(lost == 0, "no lost row")
        #expect(actions.count == count, "every action is recorded")
        let inOrder = actions.enumerated().allSatisfy { $0.element.appSeq == Int64($0.offset + 1) }
        #expect(inOrder, "in order, each once")
        #expect(dropped > 0, "the burst did coalesce states (else this test tests nothing)")
        let final = try harness.lastRecordedState(session)
        #expect(final["counter"] == .int(Int64(count)), "the closing snapshot brings the last state")
    }
}
