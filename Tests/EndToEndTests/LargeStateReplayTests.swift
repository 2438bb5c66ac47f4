import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTestSupport
import RewindWire
import Testing

/// Replay and verify of an app with a large state (issue 18, "Large states break replay and verify"): the
/// app's answers stay bounded whatever the state size and the number of actions, end to end with the real
/// daemon, the real `stress` sample and the real `rewind` executable.
@Suite("Large-state replay and verify", .serialized)
struct LargeStateReplayTests {
    @Test("rewind replay and rewind verify of 300 actions of stress --state-bytes 1000000")
    func replayAndVerifyOfAOneMegabyteState() throws {
        // The app has the command timeout to answer all of a skip's replays: 300 actions of a 1 MB state take a
        // sanitized debug build longer than the default 60 s.
        let harness = try DaemonHarness { $0.commandTimeout = TestTime.seconds($0.commandTimeout) }
        defer { harness.tearDown() }
        // Paced; a debug build's inspector may still coalesce some states (dropped ranges), whose actions verify
        // runs without comparing.
        let stress = try ChildProcess(Executables.path("stress"),
                                      ["--count", "300", "--state-bytes", "1000000", "--mix", "touch", "--rate", "150",
                                       "--stay", "--deliver-timeout", String(TestTime.seconds(90))],
                                      environment: ["REWIND_URL": harness.url])
        defer { stress.closeInput() }
        let session = try #require(harness.waitForSession(events: 300, app: "stress", timeout: 30))
        #expect(stress.waitForLine(timeout: 100, stderr: true) { $0.contains(#""delivered":true"#) } != nil,
                "stress said: \(stress.stderrLines.suffix(3))")
        session.flush()
        let reader = try harness.daemon.store.openSession(session.id)
        let actions = try reader.events(1...reader.eventCount).filter { $0.kind == .action }
        #expect(actions.count == 300)
        let comparable = try actions.filter { try reader.unknownState(after: $0.index) == nil }.count
        #expect(comparable > 0)

        let replay = try ChildProcess(Executables.path("rewind"),
                                      ["replay", session.id.rawValue, "--port", "\(harness.port)"])
        #expect(replay.waitForExit(timeout: 60) == 0, "\(replay.stderrLines)")
        #expect(replay.stdoutLines == ["replayed 300 actions of \(session.id.rawValue) into \(session.id.rawValue)"],
                "\(replay.stdoutLines) \(replay.stderrLines)")

        // Issue 31: a skip recomputes the 300 actions in one replay per segment (a segment starts where the main
        // line put a full state in place: here the snapshots closing ranges a debug build's inspector coalesced),
        // each recorded as one "replay for a skip" row on the main line (PROTOCOL.md §4.4) — not one per part of a
        // replay too long for one message (18 before, for one segment).
        let recorded = try harness.daemon.store.openSession(session.id)
        let before = recorded.eventCount
        let rows = try recorded.events(2...before)
        let segments = 1 + rows.indices.filter { position in
            [.snapshot, .jump, .replay, .reconnect].contains(rows[position].kind)
                && rows[(position + 1)...].contains { $0.kind == .action }
        }.count
        let skip = try ChildProcess(Executables.path("rewind"),
                                    ["skip", session.id.rawValue, "2", "--port", "\(harness.port)"])
        #expect(skip.waitForExit(timeout: 90) == 0, "\(skip.stdoutLines) \(skip.stderrLines)")
        session.flush()
        let after = try harness.daemon.store.openSession(session.id)
        let added = try after.events((before + 1)...after.eventCount)
        #expect(added.filter { $0.label == "replay for a skip" }.count == segments, "\(added.map { $0.label ?? "" })")

        stress.closeInput()
        #expect(stress.waitForExit(timeout: 10) == 0)
        harness.daemon.waitUntilIdle(timeout: TestTime.seconds(10))

        let verify = try ChildProcess(Executables.path("rewind"), [
            "verify", session.id.rawValue, "--data", harness.dataDirectory.path, "--",
            Executables.path("stress"), "--count", "0", "--state-bytes", "1000000", "--stay",
        ])
        #expect(verify.waitForExit(timeout: 90) == 0, "\(verify.stdoutLines) \(verify.stderrLines)")
        #expect(verify.stdoutLines.last == "verified \(comparable) events", "\(verify.stdoutLines) \(verify.stderrLines)")
    }
}
