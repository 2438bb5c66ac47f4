import Foundation
import RewindDaemon
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
        #expect(harness.waitForSession(timeout: TestTime.seconds(1)) == nil, "--help recorded a session")
        #expect(try harness.daemon.store.sessionIDs().isEmpty)
    }

    @Test("a mistyped option says so, exits 2, and no session reaches a running daemon", arguments: samples)
    func badOptionRecordsNothing(sample: String) throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let app = try ChildProcess(Executables.path(sample), ["--frobnicate"], environment: ["REWIND_URL": harness.url])
        #expect(app.waitForExit() == 2, "\(app.stderrLines)")
        #expect(app.stderrLines.joined(separator: "\n").contains("--help"), "\(app.stderrLines)")
        #expect(harness.waitForSession(timeout: TestTime.seconds(1)) == nil, "a bad option recorded a session")
        #expect(try harness.daemon.store.sessionIDs().isEmpty)
    }
}
