import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTestSupport
import RewindWire
import Testing

/// How a session ends says what happened (issue 19, item 5): `clean` only after the app said `goodbye` with
/// everything delivered; an app killed with -9 leaves it `interrupted`. The real `stress` executable against a daemon
/// in this process.
@Suite("Session endings", .serialized)
struct SessionEndingTests {
    /// The session of `app` once its recording has ended (its file no longer says `live`), and its events.
    private func ended(_ harness: DaemonHarness, app: String, timeout: Double = 15) throws
        -> (SessionMetadata, [RecordedEvent])
    {
        let session = try #require(harness.waitForSession(app: app))
        let deadline = Date(timeIntervalSinceNow: TestTime.seconds(timeout))
        while session.isLive && Date() < deadline { usleep(10_000) }
        var metadata = try harness.daemon.store.openSession(session.id).metadata
        while metadata.endState == .live && Date() < deadline {
            usleep(10_000)
            metadata = try harness.daemon.store.openSession(session.id).metadata
        }
        let reader = try harness.daemon.store.openSession(session.id)
        return (metadata, reader.eventCount > 0 ? try reader.events(1...reader.eventCount) : [])
    }

    private func stress(_ harness: DaemonHarness, _ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(Executables.path("stress"), arguments,
                         environment: ["REWIND_URL": harness.url, "REWIND_EXIT_FLUSH_SECONDS": "\(TestTime.seconds(5))"])
    }

    @Test("an app that exits normally ends its session clean, with every action recorded")
    func normalExitIsClean() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let app = try stress(harness, ["--count", "3000", "--state-bytes", "1000"] + TestTime.stressDeliveryArguments)
        #expect(app.waitForExit(timeout: TestTime.seconds(30)) == 0)
        let (metadata, events) = try ended(harness, app: "stress")
        #expect(metadata.endState == .clean)
        #expect(events.filter { $0.kind == .action }.count == 3_000)
        #expect(!events.contains { $0.kind == .dropped && $0.label == "lost" })
    }

    @Test("an app that exits without waiting is flushed by its exit hook: clean, every action recorded")
    func exitHookFlushes() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        // --deliver-timeout 0: stress does not wait; only the inspector's atexit hook delivers and says goodbye.
        let app = try stress(harness, ["--count", "3000", "--state-bytes", "1000", "--deliver-timeout", "0"])
        #expect(app.waitForExit(timeout: TestTime.seconds(30)) == 0)
        let (metadata, events) = try ended(harness, app: "stress")
        #expect(events.filter { $0.kind == .action }.count == 3_000)
        #expect(metadata.endState == .clean)
    }

    @Test("an app killed with SIGKILL while it streams leaves its session interrupted")
    func killedIsInterrupted() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let app = try stress(harness, ["--duration", "30", "--rate", "2000", "--state-bytes", "1000"])
        defer { app.signal(SIGKILL) }
        let session = try #require(harness.waitForSession(events: 200, app: "stress"))
        app.signal(SIGKILL)
        #expect(app.waitForExit(timeout: 10) != 0)
        let (metadata, _) = try ended(harness, app: "stress")
        #expect(metadata.endState == .interrupted)
        #expect(!session.isLive)
    }
}
