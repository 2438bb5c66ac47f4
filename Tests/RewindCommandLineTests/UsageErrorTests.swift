import Foundation
import Testing

/// What `rewind` says when it is called wrongly: one clear line (and the usage where it helps), exit status 64, and
/// nothing run. In process.
@Suite("rewind usage errors")
struct UsageErrorTests {
    @Test("--version and --help answer on standard output with status 0")
    func versionAndHelp() {
        let version = CommandRun(["--version"])
        #expect(version.status == 0)
        #expect(version.out.first?.contains("wire protocol") == true, "\(version.out)")
        let help = CommandRun(["--help"])
        #expect(help.status == 0)
        #expect(help.out.first == "OVERVIEW: Record, watch and time-travel the stores of apps built on Rewind.")
        #expect(help.err.isEmpty)
    }

    @Test("a mistyped command is named with the closest commands", arguments: [
        ("sesions", "Did you mean 'sessions'?"), ("stae", "Did you mean 'state'?"),
        ("stat", "Did you mean 'state' or 'stats'?"),
        ("frobnicate", "'frobnicate' is not a rewind command (commands: serve, sessions,"),
    ])
    func mistypedCommand(_ command: String, _ expected: String) {
        let run = CommandRun([command])
        #expect(run.status == 64)
        #expect(run.err.first?.contains(expected) == true, "\(run.err)")
    }

    @Test("skip with neither SEQ nor --branch says that one of them is needed (issue 31: it said \"not both\")")
    func skipNeedsAnEventOrABranch() {
        let skip = CommandRun(["skip", "some-session", "--port", "1"])
        #expect(skip.status == 64)
        #expect(skip.err.first?.contains("give the event to skip (SEQ) or --branch B:") == true, "\(skip.err)")
        #expect(!skip.errorText.contains("not both"), "\(skip.err)")
    }

    @Test("an event number below 0 is named as such (issue 31: \"Missing expected argument\")", arguments: [
        ["jump", "some-session", "-3"], ["skip", "some-session", "-3"], ["diff", "some-session", "1", "-3"],
        ["state", "some-session", "-1"],
    ])
    func negativeEventNumbers(_ command: [String]) {
        let run = CommandRun(command)
        #expect(run.status == 64)
        #expect(run.err == ["Error: '\(command.last ?? "")' is not an event number: events are numbered from 0 (the "
                + "initial state) to the session's last event (its EVENTS in 'rewind sessions')"])
    }

    @Test("an unknown option without a command names it and lists the commands, not the serve usage (issue 31)",
          arguments: [["--frobnicate"], ["--port", "7723", "--frobnicate"]])
    func unknownOptionWithoutACommand(_ arguments: [String]) {
        let run = CommandRun(arguments)
        #expect(run.status == 64)
        #expect(run.errorText.hasPrefix("Error: Unknown option '--frobnicate' (not an option of 'rewind', nor of "
                                        + "'rewind serve'"), "\(run.errorText)")
        #expect(run.errorText.contains("Commands: serve, sessions, open"), "lists the commands: \(run.errorText)")
        #expect(!run.errorText.contains("Usage: rewind serve"), "\(run.errorText)")
    }

    @Test("a missing argument names it with the command's usage")
    func missingArgument() {
        let run = CommandRun(["state"])
        #expect(run.status == 64)
        #expect(run.err.first == "Error: Missing expected argument '<session>'")
        #expect(run.errorText.contains("Usage: rewind state <session> <seq>"), "\(run.errorText)")
    }

    @Test("commands that need a running daemon say so when there is none")
    func noDaemon() throws {
        // A port nothing listens on: one just freed by the system.
        let run = CommandRun(["jump", "some-session", "1", "--port", "\(try Self.closedPort())"])
        #expect(run.status == 1)
        #expect(run.err.first?.contains("no rewind daemon is running") == true, "\(run.err)")
    }

    /// A loopback port the system just gave and took back: nothing listens there.
    private static func closedPort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0
                && getsockname(descriptor, $0, &length) == 0 }
        }
        try #require(bound)
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
