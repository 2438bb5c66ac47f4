import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTestSupport
import Testing

/// Issue 31: a sample's `--help`, or a mistyped option, is answered before its store exists — so its inspector (or
/// recorder) never connects to the daemon and never records an empty session.
@Suite("Samples: --help and bad options record nothing", .serialized)
struct SampleHelpTests {
    static let samples = ["counter", "todo", "login", "reswift-style", "tca-style", "stress"]

    @Test("--help prints the usage, exits 0, and no session reaches a running daemon", arguments: samples)
    func helpRecordsNothing(sample: String) throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let app = try ChildProcess(Executables.path(sample), ["--help"], environment: ["REWIND_URL": harness.url])
        #expect(app.waitForExit() == 0, "\(app.stderrLines)")
        #expect(app.stdoutLines.first?.hasPrefix(sample) == true, "\(app.stdoutLines.prefix(2))")
        #expect(harness.waitForSession(timeout: 1) == nil, "--help recorded a session")
        #expect(try harness.daemon.store.sessionIDs().isEmpty)
    }

    @Test("a mistyped option says so, exits 2, and no session reaches a running daemon", arguments: samples)
    func badOptionRecordsNothing(sample: String) throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let app = try ChildProcess(Executables.path(sample), ["--frobnicate"], environment: ["REWIND_URL": harness.url])
        #expect(app.waitForExit() == 2, "\(app.stderrLines)")
        #expect(app.stderrLines.joined(separator: "\n").contains("--help"), "\(app.stderrLines)")
        #expect(harness.waitForSession(timeout: 1) == nil, "a bad option recorded a session")
        #expect(try harness.daemon.store.sessionIDs().isEmpty)
    }
}

/// Issue 31: an app the daemon refuses (a wrong token) said so on every reconnect attempt (15 times in 20 s) and,
/// on exit, spoke of a session that does not exist.
@Suite("An app refused for its token says so once")
struct RefusedAppTests {
    @Test("the refusal is printed once; on exit the app says nothing was recorded, and no session exists")
    func refusalSaidOnce() throws {
        let harness = try DaemonHarness(token: "secret")
        defer { harness.tearDown() }
        let app = try ChildProcess(Executables.path("counter"), [],
                                   environment: ["REWIND_URL": harness.url, "REWIND_TOKEN": "wrong"])
        app.write("increment\n")
        Thread.sleep(forTimeInterval: TestTime.seconds(4))  // several reconnect attempts (backoff from 0.1 s)
        app.write("increment\n")
        app.closeInput()
        #expect(app.waitForExit() == 0, "\(app.stderrLines)")
        let refusals = app.stderrLines.filter { $0.contains("the daemon refused this app") }
        #expect(refusals.count == 1, "\(app.stderrLines)")
        #expect(refusals.first?.contains("unauthorized") == true)
        #expect(app.stderrLines.last == "rewind inspector: 'counter' stops with nothing recorded: the daemon "
                + "refused it (unauthorized: the token does not match)", "\(app.stderrLines)")
        #expect(!app.stderrLines.contains { $0.contains("its session") }, "no word of a session that does not exist")
        #expect(try harness.daemon.store.sessionIDs().isEmpty)
    }
}
