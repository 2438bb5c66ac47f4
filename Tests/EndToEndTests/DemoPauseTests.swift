import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTestSupport
import Testing

/// Issue 31, item 11: the demo loop fought a jump — its next steps overwrote the state put in place at once (and
/// failed against the screen it showed, in a log the user never sees). Through the inspector's `onTimeTravel`, the
/// demo now pauses after a jump or replay.
@Suite("--demo pauses while someone travels in time")
struct DemoPauseTests {
    @Test("after a jump from the timeline, the demo dispatches nothing for a while and says why")
    func demoPausesAfterAJump() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let app = try ChildProcess(Executables.path("counter"), ["--demo", "--pace", "0.05"],
                                   environment: ["REWIND_URL": harness.url])
        defer { kill(app.pid, SIGTERM) }
        let session = try #require(harness.waitForSession(events: 5, app: "counter"))
        let jumped = harness.daemon.waitFor { harness.daemon.jump(session: session.id, to: 1, completion: $0) }
        #expect(throws: Never.self) { try jumped.get() }
        #expect(app.waitForLine(stderr: true) { $0.contains("demo: paused") } != nil, "\(app.stderrLines)")
        session.flush()
        let afterJump = session.lastIndex
        Thread.sleep(forTimeInterval: TestTime.seconds(1.5))  // 30 steps of the demo's pace
        session.flush()
        let reader = try harness.daemon.store.openSession(session.id)
        let added = afterJump < reader.eventCount ? try reader.events((afterJump + 1)...reader.eventCount) : []
        #expect(added.filter { $0.kind == .action }.isEmpty, "the demo went on: \(added.map { $0.label ?? "" })")
    }
}
