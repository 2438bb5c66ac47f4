import Foundation
@testable import RewindInspector
import RewindTestSupport
import RewindWire
import Testing

/// "Delivered" (``Inspector/waitUntilDelivered(timeout:)``, the stress sample's `delivered`) is a promise about every
/// action dispatched before the question: the daemon acknowledged each as committed. It must never rest on the
/// acknowledgment of an earlier action while the pipeline has just sent a later one.
@Suite("Delivered covers the latest action")
struct DeliveredCoversTheLatestActionTests {
    @Test("with a transport that writes at once, 'delivered' is never said before the latest action is counted and acknowledged")
    func deliveredIncludesTheLatestAction() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        var configuration = InspectorConfiguration()
        configuration.url = harness.url
        let outbox = Outbox<Int, Int>(budgetBytes: configuration.outboxBudgetBytes)
        let pipeline = InspectorPipeline<Int, Int>(
            outbox: outbox, transport: WriteThroughTransport(), configuration: configuration,
            identity: AppIdentity(name: "write-through", instance: UUID().uuidString), stateType: "Int",
            initialState: 0, coding: .codable, capabilities: [], onCommand: { _ in }, onSnapshotWanted: {})
        pipeline.start()
        defer { pipeline.stop() }

        var premature: [String] = []
        for seq in 1...2_000 {
            outbox.push(seq: UInt64(seq), finishedNanos: DispatchClock.nanoseconds(), action: seq, source: nil,
                        state: seq, reducerNanos: 0)
            let deadline = Date(timeIntervalSinceNow: TestTime.seconds(10))
            // Asked as often as an app's thread can: the moment between the pipeline handing the action on and it
            // counting it is short.
            while !pipeline.hasDeliveredEverything {
                guard Date() < deadline else {
                    Issue.record("action \(seq) was not delivered within \(TestTime.seconds(10)) s")
                    return
                }
            }
            let counted = pipeline.deliveryCounts.total
            if counted != UInt64(seq) { premature.append("after action \(seq): \(counted) counted") }
        }
        #expect(premature.isEmpty, "'delivered' said \(premature.count) times too early: \(premature.prefix(5))")
        let session = try #require(harness.waitForSession(events: 2_000, app: "write-through"))
        #expect(session.lastIndex == 2_000)
    }
}
