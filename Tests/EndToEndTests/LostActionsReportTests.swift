import Foundation
import Rewind
import RewindDaemon
import RewindSessionFile
import RewindInspector
import RewindTestSupport
import RewindWire
import Testing

/// When actions are lost, every place that shows the session says how many actions (issue 18): the recorded
/// `lost` rows, `rewind sessions` (table and `--json`), and the JSON Lines export.
@Suite("Lost actions are reported", .serialized)
@MainActor
struct LostActionsReportTests {
    private func rewind(_ arguments: [String]) throws -> (status: Int32?, out: [String]) {
        let run = RewindRun.inProcess(arguments)
        return (run.status, run.stdout)
    }

    @Test("an outbox that can keep no action: the session, rewind sessions and the export count 50 actions lost")
    func listingAndExportCountLostActions() async throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        var configuration = InspectorConfiguration()
        configuration.url = harness.url
        configuration.outboxBudgetBytes = 1
        let store = Store(initialState: BurstDeliveryTests.kilobyteState, reducer: BurstDeliveryTests.reducer,
                          middleware: [Inspector.middleware(name: "lossy", configuration: configuration)])
        #expect(await Task.detached { Inspector.waitUntilDelivered(app: "lossy", timeout: TestTime.seconds(10)) }.value)
        for number in 0..<50 { store.dispatch(.touch(index: number % 10, value: number)) }
        #expect(await Task.detached { Inspector.waitUntilAccountedFor(app: "lossy", timeout: TestTime.seconds(10)) }.value)
        // Lost actions are not delivered: the answer is no, at once (waiting would not bring them back).
        let (delivered, waited) = await Task.detached { () -> (Bool, Double) in
            let started = Date()
            let delivered = Inspector.waitUntilDelivered(app: "lossy", timeout: TestTime.seconds(10))
            return (delivered, Date().timeIntervalSince(started))
        }.value
        #expect(!delivered)
        #expect(waited < TestTime.seconds(5), "answered after \(waited) s")
        let session = try #require(harness.waitForSession(app: "lossy"))
        let (actions, lost, _) = try BurstDeliveryTests.recorded(harness, session, expected: 50)
        #expect(actions.isEmpty && lost == 50)
        #expect(session.actionsLost == 50)
        let data = harness.dataDirectory.path

        let listing = try rewind(["sessions", "--json", "--data", data])
        #expect(listing.status == 0)
        let row = try JSONValue(parsing: try #require(listing.out.first))
        #expect(row["actionsLost"] == 50, "\(row)")
        let table = try rewind(["sessions", "--data", data])
        #expect(table.out.first?.contains("LOST") == true, "\(table.out)")
        #expect(table.out.dropFirst().first?.contains(" 50 ") == true, "\(table.out)")

        let export = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-lost-\(UUID()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: export) }
        #expect(try rewind(["export", session.id.rawValue, "--format", "jsonl", "-o", export, "--data", data]).status == 0)
        let lines = try String(contentsOfFile: export, encoding: .utf8).split(separator: "\n")
        let lostLines = try lines.dropFirst().map { try JSONValue(parsing: Array($0.utf8)) }
            .filter { $0["kind"] == "dropped" && $0["label"] == "lost" }
        let exported = lostLines.compactMap { $0["action"]?["actionsLost"]?.int64Value }.reduce(0, +)
        #expect(exported == 50, "\(lostLines)")
    }

    @Test("a first hello that says 40 actions came before it (sent to a daemon that died before recording them) starts the session with a lost row for 1–40")
    func actionsBeforeTheFirstHelloAreCountedLost() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let peer = try DaemonPeer(port: harness.port)
        try peer.hello(#"{"type":"hello","protocol":1,"app":{"name":"late","instance":"late-1"},"#
            + #""state":{"count":40},"seq":40,"capabilities":["jump"]}"#)
        try peer.send(AppFrames.action(seq: 1, count: 41))
        let session = try #require(harness.waitForSession(events: 2, app: "late"))
        let reader = try harness.daemon.store.openSession(session.id)
        let events = try reader.events(1...reader.eventCount)
        #expect(events.first?.kind == .dropped && events.first?.label == "lost", "\(events.map(\.kind))")
        #expect(events.first?.action?["from"]?.int64Value == 1 && events.first?.action?["to"]?.int64Value == 40)
        #expect(events.last?.kind == .action && events.last?.appSeq == 41)
        #expect(session.actionsLost == 40)
    }
}
