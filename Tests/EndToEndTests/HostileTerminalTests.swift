import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTestSupport
import RewindWire
import Testing

/// Issue 19, items 12 and 13: a peer's text never reaches a terminal or a log raw, the timeline's log file is not
/// a way to write elsewhere, and the token is kept out of `ps` and compared byte for byte.
@Suite("Daemon: terminals, logs and tokens")
struct HostileTerminalTests {
    /// An app name with a window-title escape sequence, a bell and a forged log line.
    static let evilName = "evil\u{1B}]0;owned\u{07}\nrewind: session forged"
    /// The same, as `TerminalText` shows it.
    static let evilShown = #"evil\x1B]0;owned\x07\nrewind: session forged"#

    private func helloFrame(name: String, token: String? = nil) -> String {
        var hello = JSONObject()
        hello["type"] = "hello"
        hello["protocol"] = 1
        hello["app"] = ["name": .string(name), "instance": "1"]
        hello["state"] = ["count": 0]
        if let token { hello["token"] = .string(token) }
        return JSONValue.object(hello).serialized()
    }

    private func temporaryDirectory(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("rewind-\(name)-\(UUID().uuidString)")
    }

    @Test("an app named with ESC, BEL and a newline appears escaped in the daemon log, 'rewind sessions' and 'rewind tail'")
    func escapedEverywhere() throws {
        let data = temporaryDirectory("escape")
        defer { try? FileManager.default.removeItem(at: data) }
        let served = try DaemonProcess(dataDirectory: data, startTimeout: 20)
        let daemon = served.process, port = served.port
        defer { daemon.signal(SIGKILL) }

        let app = try DaemonPeer(port: port)
        let session = try #require(try app.hello(helloFrame(name: Self.evilName)))
        let tail = try ChildProcess(Executables.path("rewind"), ["tail", session, "--port", String(port)])
        defer { tail.signal(SIGKILL) }
        // Actions until the tail (which subscribes at its own pace) shows one.
        var tailed: String?
        for seq in 1...40 where tailed == nil {
            try app.send(#"{"type":"action","seq":\#(seq),"time":1700000000.5,"action":{"type":"clear\u001b[2J\u0007"},"#
                         + #""patch":[{"op":"replace","path":"/count","value":\#(seq)}]}"#)
            tailed = tail.waitForLine(timeout: 0.25) { $0.contains("action") }
        }
        app.expectOpen()
        #expect(tailed?.contains(#"clear\x1B[2J\x07"#) == true, "tail: \(tail.stdoutLines)")

        let logged = daemon.waitForLine(timeout: 10, stderr: true) { $0.contains("started") }
        #expect(logged?.contains(Self.evilShown) == true, "log: \(daemon.stderrLines)")
        #expect(!daemon.stderrLines.contains { $0.hasPrefix("rewind: session forged") }, "a forged log line")
        #expect(!daemon.stderrLines.joined().contains("\u{1B}"), "a raw escape in the log")

        let listing = RewindRun.inProcess(["sessions", "--data", data.path])
        #expect(listing.status == 0)
        let out = listing.stdout.joined(separator: "\n")
        #expect(out.contains(Self.evilShown), "sessions: \(out)")
        #expect(!out.contains("\u{1B}") && !out.contains("\u{07}"), "a raw control character in: \(out)")
        #expect(!listing.stdout.contains { $0.hasPrefix("rewind: session forged") })
        #expect(!tail.stdoutLines.joined().contains("\u{1B}"))
    }

    @Test("the timeline's log file is created 0600, holds escaped lines, and a symbolic link at its path is not followed",
          .enabled(if: Tmux.isAvailable, "tmux is not installed"))
    func timelineLogFile() throws {
        let root = temporaryDirectory("log")
        defer { try? FileManager.default.removeItem(at: root) }
        let data = root.appendingPathComponent("sessions")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let log = root.appendingPathComponent("rewind.log")

        // First with a link planted at the log's path: its target must stay untouched.
        let target = root.appendingPathComponent("victim")
        try "precious\n".write(to: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(at: log, withDestinationURL: target)
        try runTimeline(data: data, appName: Self.evilName)
        #expect(try String(contentsOf: target, encoding: .utf8) == "precious\n", "the link was followed")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: log.path)) == target.path)

        // Then without: the file is created for its owner only, and the app's name is escaped in it.
        try FileManager.default.removeItem(at: log)
        try runTimeline(data: data, appName: Self.evilName)
        let attributes = try FileManager.default.attributesOfItem(atPath: log.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let text = try String(contentsOf: log, encoding: .utf8)
        #expect(text.contains(Self.evilShown), "log: \(text)")
        // A log another version left world-readable becomes owner-only at the next line.
        chmod(log.path, 0o644)
        try runTimeline(data: data, appName: "plain")
        #expect((try FileManager.default.attributesOfItem(atPath: log.path)[.posixPermissions] as? Int) == 0o600)
        #expect(!text.contains("\u{1B}"))
        #expect(!text.split(separator: "\n").contains { $0.hasPrefix("rewind: session forged") })
    }

    /// Runs `rewind` with its timeline in tmux, connects an app named `appName` (the daemon logs its start), quits.
    private func runTimeline(data: URL, appName: String) throws {
        let port = FreePort.next()
        let tmux = try Tmux(command: "\(Executables.path("rewind")) --port \(port) --data \(data.path)")
        defer { tmux.kill() }
        try #require(tmux.waitForScreen { $0.contains("ws://127.0.0.1:\(port)") } != nil)
        let app = try DaemonPeer(port: port)
        _ = try app.hello(helloFrame(name: appName))
        #expect(tmux.waitForScreen { $0.contains(appName.prefix(4)) } != nil)
        let screen = tmux.screen
        #expect(!screen.contains("\u{1B}"))
        tmux.send("q")
        if tmux.waitForScreen(timeout: 3, { $0.contains("Quit rewind?") }) != nil { tmux.send("y") }
        #expect(tmux.waitForExit(), "rewind quit")
    }

    @Test("the token can come from --token-file or REWIND_TOKEN; it is then not in the command line")
    func tokenFromFileAndEnvironment() throws {
        let root = temporaryDirectory("token")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let tokenFile = root.appendingPathComponent("token")
        try "s3cret-from-file\n".write(to: tokenFile, atomically: true, encoding: .utf8)
        chmod(tokenFile.path, 0o600)

        for (arguments, environment, token) in [
            (["--token-file", tokenFile.path], [String: String](), "s3cret-from-file"),
            ([], ["REWIND_TOKEN": "s3cret-from-env"], "s3cret-from-env"),
        ] {
            let served = try DaemonProcess(dataDirectory: root.appendingPathComponent("data"), options: arguments,
                                           environment: environment, startTimeout: 20)
            let daemon = served.process, port = served.port
            defer { daemon.signal(SIGKILL) }
            let commandLine = try String(contentsOfFile: "/proc/\(daemon.pid)/cmdline", encoding: .utf8)
            #expect(!commandLine.contains(token), "the token is visible in ps")

            let refused = try DaemonPeer(port: port)
            try refused.send(helloFrame(name: "app", token: "wrong"))
            try refused.expectError(.unauthorized)
            refused.expectClose(1008)
            let allowed = try DaemonPeer(port: port)
            #expect(try allowed.hello(helloFrame(name: "app", token: token)) != nil)

            // A control command given the same token file (or environment) is let in.
            let sessions = try ChildProcess(Executables.path("rewind"),
                                            ["jump", "no-such-session", "1", "--port", String(port)] + arguments,
                                            environment: environment)
            #expect(sessions.waitForExit() != 0)
            #expect(!sessions.stderrLines.joined().contains("token"), "stderr: \(sessions.stderrLines)")
        }
    }

    @Test("--token-file that cannot be read, or --token with --token-file, is refused before anything starts")
    func tokenFileRefused() throws {
        let missing = try ChildProcess(Executables.path("rewind"),
                                       ["serve", "--headless", "--port", String(FreePort.next()),
                                        "--token-file", "/nonexistent/token"])
        #expect(missing.waitForExit() != 0)
        #expect(missing.stderrLines.contains { $0.contains("--token-file: cannot read /nonexistent/token") },
                "stderr: \(missing.stderrLines)")
        let both = try ChildProcess(Executables.path("rewind"),
                                    ["serve", "--headless", "--port", String(FreePort.next()), "--token", "a",
                                     "--token-file", "/etc/hostname"])
        #expect(both.waitForExit() != 0)
        #expect(both.stderrLines.contains { $0.contains("cannot be used together") }, "stderr: \(both.stderrLines)")
    }

    @Test("a token that is only canonically equivalent to the daemon's is refused, for apps and control clients")
    func canonicallyEquivalentToken() throws {
        let harness = try DaemonHarness(token: "caf\u{E9}")
        defer { harness.tearDown() }
        let app = try DaemonPeer(port: harness.port)
        try app.send(helloFrame(name: "app", token: "cafe\u{301}"))
        try app.expectError(.unauthorized)
        app.expectClose(1008)
        let control = try DaemonPeer(port: harness.port, subprotocol: WireProtocol.controlSubprotocol)
        try control.request("1", "sessions", token: "cafe\u{301}")
        try control.expectFailure("1", .unauthorized)
        let exact = try DaemonPeer(port: harness.port)
        #expect(try exact.hello(helloFrame(name: "app", token: "caf\u{E9}")) != nil)
    }

    @Test("sessions stored with absurd or negative times (by older versions) list, export and open without trapping")
    func storedAbsurdTimes() throws {
        let data = temporaryDirectory("absurd")
        defer { try? FileManager.default.removeItem(at: data) }
        let store = try SessionStore(directory: data)
        let recording = try store.createSession(appName: "old", protocolVersion: 1, initialState: ["n": 0],
                                                startedAt: Date(timeIntervalSince1970: 1e300))
        for (n, time) in [1e19, 1e300, -1e300, 1_700_000_000].enumerated() {
            let patch = JSONPatch([.replace(path: JSONPointer(tokens: ["n"]), value: .int(Int64(n + 1)))])
            recording.append(NewEvent(appSeq: Int64(n + 1), time: time, kind: .action, label: "set", patch: patch,
                                      reducerMicros: time),
                             stateAfter: ["n": .int(Int64(n + 1))])
        }
        recording.finish(endState: .clean)
        let id = recording.id.rawValue
        var negativeIDs: [String] = []
        for startedAt in [-1.0, -1e10, -1e300] {
            let negative = try store.createSession(appName: "negative", protocolVersion: 1, initialState: ["n": 0],
                                                   startedAt: Date(timeIntervalSince1970: startedAt))
            negative.append(NewEvent(time: startedAt, kind: .note, label: "n"), stateAfter: ["n": 0])
            negative.finish(endState: .clean)
            negativeIDs.append(negative.id.rawValue)
        }
        #expect(try store.listSessions().count == 4)
        for negative in negativeIDs {
            let run = try ChildProcess(Executables.path("rewind"), ["export", negative, "--format", "redux-devtools", "-o",
                                                                   data.appendingPathComponent("\(negative).json").path,
                                                                   "--data", data.path])
            #expect(run.waitForExit() == 0, "\(negative): \(run.stderrLines)")
        }

        for arguments in [["sessions"], ["sessions", "--json"],
                          ["export", id, "--format", "redux-devtools", "-o", data.appendingPathComponent("r.json").path],
                          ["export", id, "--format", "jsonl", "-o", data.appendingPathComponent("r.jsonl").path]] {
            let run = try ChildProcess(Executables.path("rewind"), arguments + ["--data", data.path])
            #expect(run.waitForExit() == 0, "\(arguments): \(run.stderrLines)")
            if arguments == ["sessions"] {
                #expect(run.stdoutLines.count == 5, "a header and four sessions: \(run.stdoutLines)")
            }
        }
        guard Tmux.isAvailable else { return }
        let tmux = try Tmux(command: "\(Executables.path("rewind")) open \(id) --data \(data.path)")
        defer { tmux.kill() }
        #expect(tmux.waitForScreen { $0.contains("set") } != nil, "the timeline shows the events: \(tmux.screen)")
        tmux.send("G")
        tmux.send("g")
        #expect(tmux.waitForScreen { $0.contains("set") } != nil)
        tmux.send("q")
        if tmux.waitForScreen(timeout: 3, { $0.contains("Quit rewind?") }) != nil { tmux.send("y") }
        #expect(tmux.waitForExit(), "rewind open quit normally (it did not trap)")
    }

    @Test("rewind serve with its timeline survives an action time of 1e19 and 1e300, and keeps recording the app",
          .enabled(if: Tmux.isAvailable, "tmux is not installed"))
    func timelineSurvivesHugeTimes() throws {
        let data = temporaryDirectory("huge-time")
        defer { try? FileManager.default.removeItem(at: data) }
        let port = FreePort.next()
        let tmux = try Tmux(command: "\(Executables.path("rewind")) --port \(port) --data \(data.path)")
        defer { tmux.kill() }
        try #require(tmux.waitForScreen { $0.contains("ws://127.0.0.1:\(port)") } != nil)
        let app = try DaemonPeer(port: port)
        _ = try app.hello(helloFrame(name: "clockwork"))
        for (seq, time) in [(1, "1e19"), (1, "1e300"), (1, "1700000000.5")] {
            try app.send(#"{"type":"action","seq":\#(seq),"time":\#(time),"action":{"type":"tick"},"#
                         + #""patch":[{"op":"replace","path":"/count","value":\#(seq)}]}"#)
        }
        try app.expectError(.badField, field: "action.time")
        try app.expectError(.badField, field: "action.time")
        app.expectOpen()
        #expect(tmux.waitForScreen { $0.contains("tick") && $0.contains("3 events") } != nil, "screen: \(tmux.screen)")
        tmux.send("q")
        if tmux.waitForScreen(timeout: 3, { $0.contains("Quit rewind?") }) != nil { tmux.send("y") }
        #expect(tmux.waitForExit(), "rewind quit normally")
    }

    @Test("a FIFO named like a session in the data directory neither hangs 'rewind sessions' nor the daemon's start")
    func fifoInTheDataDirectory() throws {
        let data = temporaryDirectory("fifo")
        defer { try? FileManager.default.removeItem(at: data) }
        let store = try SessionStore(directory: data)
        let recording = try store.createSession(appName: "real", protocolVersion: 1, initialState: ["n": 0])
        recording.finish(endState: .clean)
        #expect(mkfifo(data.appendingPathComponent("20260101-000000-fifo-abcdef.rewind").path, 0o600) == 0)

        let listing = try ChildProcess(Executables.path("rewind"), ["sessions", "--data", data.path])
        #expect(listing.waitForExit(timeout: 10) == 0, "rewind sessions did not finish: \(listing.stderrLines)")
        #expect(listing.stdoutLines.contains { $0.contains(recording.id.rawValue) })
        #expect(listing.stderrLines.contains { $0.contains("left out: ") && $0.contains("20260101-000000-fifo-abcdef.rewind")
                    && $0.contains("FIFO") },
                "stderr: \(listing.stderrLines)")

        let daemon = try DaemonProcess(dataDirectory: data, startTimeout: nil).process
        defer { daemon.signal(SIGKILL) }
        #expect(daemon.waitForLine(timeout: 10, stderr: true) { $0.contains("listening on") } != nil,
                "the daemon did not start: \(daemon.stderrLines)")
    }
}
