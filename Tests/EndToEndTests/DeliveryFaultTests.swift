import Foundation
@testable import RewindDaemon
@testable import RewindSessionFile
import RewindTestSupport
import RewindWire
import Testing

/// The faults of issue 28, each as an independent tester reproduced it, against a real daemon: half-open connections,
/// a stalled or full disk, resets that outrun the resend log, absurd numbers from a peer, a clean daemon stop. Every
/// action an app sends must be recorded exactly once in one session, or counted in a `lost` row, and what the app is
/// told (`ack`, `delivered`) and what the record says (`clean`, LOST) must be true.
@Suite("Delivery under faults", .serialized)
struct DeliveryFaultTests {
    // MARK: Half-open connections (case 1)

    @Test("a connection reset on the app's side only: the app's reconnect continues its session, nothing is counted lost, the old connection is closed")
    func halfOpenReconnectContinuesTheSession() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let proxy = try ResettingProxy(targetPort: harness.port)
        defer { proxy.stop() }
        let hello = AcknowledgmentTests.helloReadingAcks(instance: "roaming-run")
        let first = try DaemonPeer(port: proxy.port)
        let session = try #require(try first.hello(hello))
        try first.send(AppFrames.batch(1...10))
        try Self.readAck(10, from: first)
        #expect(proxy.resetAppSide() == 1)
        let live = try #require(harness.daemon.session(try SessionID(validating: session)))
        #expect(live.isLive, "the daemon's side of the old connection is still open")

        // The app reconnects directly, as the same run, from action 10.
        let second = try DaemonPeer(port: harness.port, answersPings: true)
        try second.send(Self.hello(hello, seq: 10))
        let welcome = try second.next()
        #expect(welcome["type"] == "welcome")
        #expect(welcome["session"]?.stringValue == session, "the same session: \(welcome)")
        #expect(welcome["resumed"] == true)
        try second.send(AppFrames.action(seq: 1, count: 11))
        try Self.readAck(1, from: second)

        live.flush()
        let reader = try harness.daemon.store.openSession(live.id)
        let events = try reader.events(1...reader.eventCount)
        #expect(events.filter { $0.kind == .action }.compactMap(\.appSeq) == (1...11).map { Int64($0) })
        #expect(!events.contains { $0.label == "lost" }, "\(events.map(SessionAccount.row))")
        #expect(harness.daemon.sessions.count == 1, "one session for the run")
        #expect(try recordedFinalState(harness, session) == ["count": 11])

        // Commands go to the connection the app is on now.
        let box = CommandOutcome()
        harness.daemon.jump(session: live.id, to: 0) { box.set($0) }
        let jump = try second.next()
        #expect(jump["type"] == "jump", "\(jump)")
        try second.send(#"{"type":"result","id":"\#(jump["id"]?.stringValue ?? "")","ok":true}"#)
        #expect(box.wait()?.isSuccess == true)
    }

    @Test("a half-open connection the app never replaces is found by the keepalive: the session ends, and commands are refused at once")
    func keepaliveEndsAStaleSession() throws {
        let harness = try DaemonHarness {
            $0.keepaliveInterval = TestTime.seconds(0.5)
            $0.keepaliveTimeout = TestTime.seconds(1)
        }
        defer { harness.tearDown() }
        let proxy = try ResettingProxy(targetPort: harness.port)
        defer { proxy.stop() }
        let peer = try DaemonPeer(port: proxy.port)
        let session = try SessionID(validating: try #require(try peer.hello(AppFrames.hello(name: "sleeper"))))
        try peer.send(AppFrames.batch(1...5))
        peer.expectOpen()
        proxy.resetAppSide()
        let live = try #require(harness.daemon.session(session))
        let started = Date()
        #expect(ProcessResources.settle(timeout: 10) { !live.isLive })
        #expect(Date().timeIntervalSince(started) < TestTime.seconds(4), "found within the keepalive's bound")
        let box = CommandOutcome()
        harness.daemon.jump(session: session, to: 0) { box.set($0) }
        guard case .failure(let refusal)? = box.wait(timeout: 1) else {
            Issue.record("the jump was not refused at once")
            return
        }
        #expect(refusal.code == .sessionNotLive, "\(refusal)")
        let reader = try harness.daemon.store.openSession(session)
        #expect(reader.metadata.endState == .interrupted)
    }

    @Test("a real app whose connection goes half-open four times is recorded in one session, every action once, none counted lost")
    func stressThroughHalfOpenResets() throws {
        let daemon = try DaemonProcess()
        defer { daemon.tearDown() }
        let proxy = try ResettingProxy(targetPort: daemon.port)
        defer { proxy.stop() }
        let app = try ChildProcess(
            Executables.path("stress"),
            ["--duration", "5", "--rate", "1000", "--state-bytes", "1000", "--mix", "touch"]
                + TestTime.stressDeliveryArguments,
            environment: ["REWIND_URL": proxy.url])
        for _ in 0..<4 {
            usleep(900_000)
            proxy.resetAppSide()
        }
        let run = try Self.finished(app, stopping: daemon.process, data: daemon.dataDirectory)
        let account = run.account
        #expect(account.sessions == 1, "\(account.sessionIDs); the daemon said: \(daemon.process.stderrLines.suffix(12))")
        #expect(account.declaredLost == 0, "\(account)")
        #expect(account.recordedTwice == 0, "\(account.duplicates)")
        #expect(run.report["delivered"] == true, "\(run.report)")
        let logged = daemon.process.stderrLines
        #expect(logged.contains { $0.contains("did not answer a ping") }, "the daemon probed the half-open connection")
    }

    // MARK: A stalled or full disk (case 2)

    @Test("a writer that stalls while an app streams: nothing the app sent is discarded, the app is read as fast as its record is committed")
    func stalledWriterLosesNothing() async throws {
        // A small buffer: the old recording coalesced what passed it into an unlabelled count row.
        let harness = try DaemonHarness {
            $0.recording.maxBufferedBytes = 64 << 10
            $0.maxBacklogBytesPerApp = 256 << 10
        }
        defer { harness.tearDown() }
        let app = try ChildProcess(
            Executables.path("stress"),
            ["--duration", "4", "--rate", "2000", "--state-bytes", "2000", "--mix", "touch"]
                + TestTime.stressDeliveryArguments,
            environment: ["REWIND_URL": harness.url])
        let session = try #require(harness.waitForSession(events: 100, app: "stress", timeout: 20))
        // Another connection holds the file's write lock: the writer's commits wait, as behind a stalled disk.
        let blocker = try SQLiteDatabase(path: harness.daemon.store.fileURL(for: session.id).path, mode: .readWrite)
        try blocker.execute("BEGIN IMMEDIATE")
        usleep(2_000_000)
        let heldBack = session.committedIndex
        try blocker.execute("COMMIT")
        blocker.close()
        #expect(app.waitForExit(timeout: TestTime.seconds(90)) == 0, "\(app.stderrLines.suffix(5))")
        let sent = try SoakTests.sentActions(app)
        let report = try JSONValue(parsing: try #require(app.stderrLines.last { $0.hasPrefix("{") }))
        harness.daemon.waitUntilIdle(timeout: TestTime.seconds(10))
        session.flush()
        let account = try SessionAccount.of(instancePID: app.pid, in: harness.dataDirectory)
        #expect(heldBack < Int64(sent), "the writer really stalled")
        #expect(account.accounts(for: sent), "sent \(sent), \(account); not recorded: \(account.missing(of: sent))")
        #expect(account.declaredLost == 0)
        #expect(report["delivered"] == true, "\(report)")
        let events = try harness.daemon.store.openSession(session.id).events(1...session.committedIndex)
        #expect(!events.contains { $0.kind == .dropped && $0.label == nil }, "no count row replaced events")
    }

    @Test("a full disk: the daemon keeps what it received and acknowledges none of it; once space is freed, every action is recorded")
    func fullDiskLosesNothing() throws {
        guard let (disk, data) = FrozenDisk.forTest("full-disk") else { return }
        defer { disk.cleanup() }
        let daemon = try disk.startDaemon()
        defer {
            daemon.process.signal(SIGTERM)
            _ = daemon.process.waitForExit(timeout: 20)
        }
        let app = try ChildProcess(
            Executables.path("stress"),
            ["--duration", "4", "--rate", "2000", "--state-bytes", "3000", "--mix", "mixed", "--change-bytes", "3000"]
                + TestTime.stressDeliveryArguments,
            environment: ["REWIND_URL": daemon.url])
        usleep(800_000)
        disk.fill()
        #expect(daemon.process.waitForLine(timeout: TestTime.seconds(10), stderr: true) { $0.contains("disk is full") }
                != nil, "the daemon says its disk is full: \(daemon.process.stderrLines.suffix(3))")
        usleep(2_500_000)
        disk.free()
        let run = try Self.finished(app, stopping: daemon.process, data: data)
        #expect(run.account.declaredLost == 0, "\(run.account)")
        #expect(run.report["delivered"] == true, "\(run.report)")
    }

    // MARK: Resets that outrun the resend log (case 3)

    @Test("a 1 MB state through eight connection resets: the app says delivered only when nothing was lost, and its lost count is the session's")
    func resetsWithALargeState() throws {
        let daemon = try DaemonProcess()
        defer { daemon.tearDown() }
        let proxy = try ResettingProxy(targetPort: daemon.port)
        defer { proxy.stop() }
        let app = try ChildProcess(
            Executables.path("stress"),
            ["--duration", "4", "--rate", "1000", "--state-bytes", "1000000", "--mix", "mixed", "--change-bytes",
             "5000"] + TestTime.stressDeliveryArguments,
            environment: ["REWIND_URL": proxy.url])
        for _ in 0..<8 {
            usleep(450_000)
            proxy.reset()
        }
        let (report, account) = try Self.finished(app, stopping: daemon.process, data: daemon.dataDirectory)
        #expect(account.sessions == 1, "\(account.sessionIDs)")
        #expect(report["lost"]?.int64Value == account.declaredLost, "the app's lost count is the session's: \(report)")
        #expect(report["delivered"] == .bool(account.declaredLost == 0), "\(report), \(account)")
    }

    // MARK: Numbers from the peer (case 4)

    @Test("a hello whose seq passes 2^53 - 1 is refused at the edge: no session, no lost row")
    func absurdHelloSeq() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let peer = try DaemonPeer(port: harness.port)
        try peer.send(Self.hello(AppFrames.hello(name: "absurd"), seq: 9_223_372_036_854_775_807))
        let message = try peer.expectError(.badField, field: "hello.seq")
        #expect(message.contains("2^53 - 1"), "\(message)")
        try peer.send(Self.hello(AppFrames.hello(name: "absurd"), seq: 9_007_199_254_740_991))
        let welcome = try peer.next()
        #expect(welcome["type"] == "welcome", "the largest action number is accepted: \(welcome)")
        let live = try #require(harness.daemon.sessions.first)
        #expect(live.actionsLost == 9_007_199_254_740_991)
        #expect(harness.daemon.sessions.count == 1)
    }

    // MARK: A clean stop (case 7)

    @Test("rewind serve stopped with SIGTERM ends the sessions of connected apps clean, with every event committed")
    func cleanStopEndsSessionsClean() throws {
        let daemon = try DaemonProcess()
        defer { daemon.tearDown() }
        let app = try ChildProcess(Executables.path("stress"), ["--count", "500", "--rate", "2000", "--stay"],
                                   environment: ["REWIND_URL": daemon.url])
        defer { app.closeInput() }
        #expect(app.waitForLine(timeout: TestTime.seconds(30), stderr: true) { $0.hasPrefix("{") } != nil)
        daemon.process.signal(SIGTERM)
        #expect(daemon.process.waitForExit(timeout: 20) == 0)
        let sessions = try daemon.sessions(app: "stress")
        #expect(sessions.count == 1)
        #expect(sessions.first?.endState == .clean, "\(sessions)")
        let account = try SessionAccount.of(instancePID: app.pid, in: daemon.dataDirectory)
        #expect(account.accounts(for: 500), "\(account)")
    }

    // MARK: Helpers

    /// Waits for the `stress` run `app` to end, stops the daemon (`SIGTERM`, a clean stop), and returns what the app
    /// reported and what its sessions in `data` hold, checking that they account for every action it sent.
    static func finished(_ app: ChildProcess, stopping daemon: ChildProcess, data: URL,
                         sourceLocation: SourceLocation = #_sourceLocation) throws
        -> (report: JSONValue, account: SessionAccount) {
        #expect(app.waitForExit(timeout: TestTime.seconds(120)) == 0, "\(app.stderrLines.suffix(5))",
                sourceLocation: sourceLocation)
        let sent = try SoakTests.sentActions(app)
        let report = try JSONValue(parsing: try #require(app.stderrLines.last { $0.hasPrefix("{") },
                                                         sourceLocation: sourceLocation))
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit(timeout: 20) == 0, sourceLocation: sourceLocation)
        let account = try SessionAccount.of(instancePID: app.pid, in: data)
        #expect(account.accounts(for: sent), "sent \(sent), \(account); not recorded: \(account.missing(of: sent))",
                sourceLocation: sourceLocation)
        return (report, account)
    }

    /// `hello` (an `AppFrames.hello`) saying that the app had dispatched `seq` actions when its state was taken.
    static func hello(_ hello: String, seq: UInt64) -> String {
        hello.replacingOccurrences(of: #""capabilities":"#, with: #""seq":\#(seq),"capabilities":"#)
    }

    /// Reads messages until an `ack` through `seq` (failing on anything else but a lower `ack`).
    static func readAck(_ seq: Int64, from peer: DaemonPeer, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let deadline = Date(timeIntervalSinceNow: TestTime.seconds(5))
        while Date() < deadline {
            let message = try JSONValue(parsing: try peer.raw.readMessage())
            guard message["type"] == "ack" else {
                Issue.record("expected an ack, got \(message)", sourceLocation: sourceLocation)
                return
            }
            if let acked = message["seq"]?.int64Value, acked >= seq { return }
        }
        Issue.record("no ack through \(seq)", sourceLocation: sourceLocation)
    }
}

/// Case 7 of issue 28 through the timeline in a terminal: `q` in `rewind` (as at the end of `make demo`) stops the
/// daemon cleanly, and the sessions of the apps still connected end `clean`, not `interrupted`.
@Suite("Quitting the timeline ends connected sessions clean (tmux)", .serialized,
       .enabled(if: Tmux.isAvailable, "tmux is not installed"))
struct TimelineQuitTmuxTests {
    @Test("q, then y, with an app connected: the app's session ends clean with every event committed")
    func quitEndsSessionsClean() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-quit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let port = FreePort.next()
        let tmux = try Tmux(command: "\(Executables.path("rewind")) --port \(port) --data \(data.path)")
        defer { tmux.kill() }
        #expect(tmux.waitForScreen { $0.contains("ws://127.0.0.1:\(port)") } != nil)
        let app = try ChildProcess(Executables.path("stress"), ["--count", "300", "--rate", "1000", "--stay"],
                                   environment: ["REWIND_URL": "ws://127.0.0.1:\(port)"])
        defer { app.closeInput() }
        #expect(app.waitForLine(timeout: TestTime.seconds(30), stderr: true) { $0.hasPrefix("{") } != nil)
        #expect(tmux.waitForScreen { $0.contains("300 events") } != nil, "\(tmux.screen)")
        tmux.send("q")
        #expect(tmux.waitForScreen { $0.contains("Quit rewind?") } != nil, "\(tmux.screen)")
        tmux.send("y")
        #expect(tmux.waitForExit(), "rewind quit")
        let sessions = try SessionStore(directory: data).listSessions().filter { $0.appName == "stress" }
        #expect(sessions.count == 1)
        #expect(sessions.first?.endState == .clean, "\(sessions)")
        let account = try SessionAccount.of(instancePID: app.pid, in: data)
        #expect(account.accounts(for: 300), "\(account)")
    }
}
