import Foundation
import RewindTestSupport
import RewindWire
import Testing

/// Capture anywhere (docs/INTEGRATIONS.md, "QA and bug reports"): real sample apps with no daemon reachable record into
/// capture files, and a triggered capture holds exactly the last actions; `rewind import` turns either into a session
/// that reads, opens and verifies like any other.
@Suite("Capture end to end", .serialized)
struct CaptureEndToEndTests {
    /// A fresh directory for one test's captures and data.
    private func directory(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-capture-\(name)-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func script(_ lines: [String], in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("script.txt").path
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The capture files in `directory`, by name.
    private func captures(in directory: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(CaptureHeader.fileSuffix) }.sorted()
            .map { directory.appendingPathComponent($0) }
    }

    /// The lines of a capture file, parsed.
    private func lines(of file: URL) throws -> [JSONValue] {
        try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map { try JSONValue(parsing: String($0)) }
    }

    /// `rewind sessions --json`: one object per session.
    private func sessions(in data: URL) throws -> [JSONValue] {
        try RewindRun.inProcess(["sessions", "--data", data.path, "--json"]).stdout.map { try JSONValue(parsing: $0) }
    }

    /// A port nothing listens on: the app's daemon is unreachable.
    private var unreachable: String { "ws://127.0.0.1:\(FreePort.unused())" }

    @Test("with no daemon reachable the counter records offline, and the capture imports, reads and verifies")
    func offlineCaptureImportsAndVerifies() throws {
        let root = try directory("offline")
        defer { try? FileManager.default.removeItem(at: root) }
        let captureDirectory = root.appendingPathComponent("captures")
        let commands = ["increment", "add 5", "decrement", "add 10", "increment"]
        let app = try ChildProcess(Executables.path("counter"), ["--script", try script(commands, in: root)],
                                   environment: ["REWIND_URL": unreachable, "REWIND_CAPTURE_DIR": captureDirectory.path])
        #expect(app.waitForExit() == 0)
        #expect(app.stderrLines.contains { $0.contains("recording offline into \(captureDirectory.path)") },
                "the app says where it records: \(app.stderrLines)")

        let files = try captures(in: captureDirectory)
        try #require(files.count == 1, "one offline part: \(files.map(\.lastPathComponent))")
        #expect(files[0].lastPathComponent.hasPrefix("counter-"))
        #expect(files[0].lastPathComponent.hasSuffix("-offline-1" + CaptureHeader.fileSuffix))
        let attributes = try FileManager.default.attributesOfItem(atPath: files[0].path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600, "a capture holds the app's states: owner only")
        let lines = try lines(of: files[0])
        #expect(lines.first?["format"] == "rewind-capture")
        #expect(lines.first?["reason"] == "offline")
        #expect(lines.dropFirst().first?["type"] == "hello")
        #expect(lines.last == ["type": "goodbye", "seq": 5], "a clean exit ends the part with goodbye")

        let data = root.appendingPathComponent("data")
        let imported = RewindRun.inProcess(["import", captureDirectory.path, "--data", data.path])
        #expect(imported.status == 0, "\(imported.stdout) \(imported.stderr)")
        let sessions = try self.sessions(in: data)
        try #require(sessions.count == 1, "one imported session: \(sessions)")
        let id = try #require(sessions[0]["id"]?.stringValue)
        let final = try JSONValue(parsing: try #require(app.stdoutLines.last))
        #expect(sessions[0]["events"] == .int(Int64(commands.count)))
        let state = RewindRun.inProcess(["state", id, "\(commands.count)", "--data", data.path])
        #expect(try JSONValue(parsing: state.stdout.joined(separator: "\n")) == final, "\(state.stderr)")

        let verify = try ChildProcess(Executables.path("rewind"),
                                      ["verify", id, "--data", data.path, "--", Executables.path("counter")])
        #expect(verify.waitForExit(timeout: 60) == 0, "\(verify.stdoutLines) \(verify.stderrLines)")
        #expect(verify.stdoutLines.last == "verified \(commands.count) events")
    }

    @Test("a triggered capture holds exactly the last N actions and the state before them")
    func triggerWritesTheLastActions() throws {
        let root = try directory("trigger")
        defer { try? FileManager.default.removeItem(at: root) }
        // Every command changes the count, so the app prints one state per action: line k is the state after k.
        let commands = ["increment", "add 5", "decrement", "add 10", "increment", "add 3", "decrement", "add 7",
                        "increment", "add 2"]
        // No capture directory: a triggered capture goes to the default one, $XDG_STATE_HOME/rewind/captures.
        let app = try ChildProcess(Executables.path("counter"),
                                   ["--script", try script(commands + ["capture saw a bug"], in: root)],
                                   environment: ["REWIND_URL": unreachable, "REWIND_CAPTURE_RECENT": "4",
                                                 "XDG_STATE_HOME": root.path])
        #expect(app.waitForExit() == 0)
        let states = try app.stdoutLines.map { try JSONValue(parsing: $0) }
        try #require(states.count == commands.count + 1, "\(app.stdoutLines)")

        let captureDirectory = root.appendingPathComponent("rewind/captures")
        let files = try captures(in: captureDirectory)
        try #require(files.count == 1, "only the triggered capture (no offline capture asked for)")
        #expect(files[0].lastPathComponent.contains("-trigger"))
        #expect(app.stderrLines.contains { $0.contains("captured the last actions into \(files[0].path)") })
        let lines = try lines(of: files[0])
        #expect(lines[0]["reason"] == "trigger")
        #expect(lines[0]["note"] == "saw a bug")
        let hello = lines[1]
        #expect(hello["type"] == "hello")
        #expect(hello["seq"] == 6)
        #expect(hello["state"] == states[6], "the state before the first of the last 4 actions")
        let events = lines.dropFirst(2).flatMap { line -> [JSONValue] in
            line["type"] == "batch" ? line["events"]?.arrayValue ?? [] : line["type"] == "action" ? [line] : []
        }
        #expect(events.map { $0["seq"] } == [7, 8, 9, 10])

        let data = root.appendingPathComponent("data")
        let imported = RewindRun.inProcess(["import", files[0].path, "--data", data.path])
        #expect(imported.status == 0, "\(imported.stdout) \(imported.stderr)")
        let sessions = try self.sessions(in: data)
        let id = try #require(sessions.first?["id"]?.stringValue, "\(sessions)")
        #expect(sessions.first?["events"] == 4, "exactly the 4 actions: \(sessions)")
        let first = RewindRun.inProcess(["state", id, "0", "--data", data.path])
        #expect(try JSONValue(parsing: first.stdout.joined(separator: "\n")) == states[6], "\(first.stderr)")
        let state = RewindRun.inProcess(["state", id, "4", "--data", data.path])
        #expect(try JSONValue(parsing: state.stdout.joined(separator: "\n")) == states[10], "\(state.stderr)")
    }

    @Test("a burst with no daemon keeps the capture directory within its file count and size")
    func rollingWindowStaysBounded() throws {
        let root = try directory("burst")
        defer { try? FileManager.default.removeItem(at: root) }
        let limit = 64 << 10
        let app = try ChildProcess(Executables.path("stress"),
                                   ["--count", "30000", "--state-bytes", "2000", "--seed", "3", "--print-state",
                                    "--deliver-timeout", String(TestTime.seconds(30))],
                                   environment: ["REWIND_URL": unreachable, "REWIND_CAPTURE_DIR": root.path,
                                                 "REWIND_CAPTURE_FILE_BYTES": "\(limit)", "REWIND_CAPTURE_FILES": "3"])
        #expect(app.waitForExit(timeout: TestTime.seconds(120)) == 0)
        let report = try JSONValue(parsing: try #require(app.stderrLines.last))
        #expect(report["delivered"] == true, "everything dispatched reached the capture files: \(app.stderrLines)")
        let files = try captures(in: root)
        #expect(files.count == 3, "\(files.map(\.lastPathComponent))")
        for file in files {
            // A part ends at the end of the inspector's turn that crossed the limit: what one turn writes (at most 512
            // actions: a batch, a coalesced range's announcement, its events and closing snapshot) and the goodbye.
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
            let beforeLastTurn = lines.dropLast(6).reduce(0) { $0 + $1.utf8.count + 1 }
            #expect(beforeLastTurn <= limit, "\(file.lastPathComponent): \(beforeLastTurn) bytes before its last turn")
        }
        let parts = try files.map { try #require(self.lines(of: $0).first?["part"]?.int64Value) }.sorted()
        #expect(parts.count == 3 && parts[0] > 1, "the oldest parts were deleted: \(parts)")
        #expect(zip(parts, parts.dropFirst()).allSatisfy { $1 == $0 + 1 }, "the newest parts are kept: \(parts)")

        let data = root.appendingPathComponent("data")
        let imported = RewindRun.inProcess(["import", root.path, "--data", data.path])
        #expect(imported.status == 0, "\(imported.stdout) \(imported.stderr)")
        let sessions = try self.sessions(in: data)
        try #require(sessions.count == 1, "the parts of one run are one session: \(sessions)")
        let id = try #require(sessions[0]["id"]?.stringValue)
        let final = try JSONValue(parsing: try #require(app.stdoutLines.last))
        let events = try #require(sessions[0]["events"]?.int64Value)
        let state = RewindRun.inProcess(["state", id, "\(events)", "--data", data.path])
        #expect(try JSONValue(parsing: state.stdout.joined(separator: "\n")) == final,
                "the newest part ends with the app's final state: \(state.stderr)")
        #expect(sessions[0]["actionsLost"] != 0, "the deleted parts' actions are counted lost")
    }

    @Test("redacted values never reach a capture file, offline or triggered")
    func redactedValuesNeverReachTheFile() throws {
        let root = try directory("redaction")
        defer { try? FileManager.default.removeItem(at: root) }
        let secret = "hunter2-\(UUID().uuidString.prefix(8))"
        let app = try ChildProcess(Executables.path("login"),
                                   ["--script", try script(["username alice", "password \(secret)", "capture", "submit"],
                                                           in: root)],
                                   environment: ["REWIND_URL": unreachable, "REWIND_CAPTURE_DIR": root.path,
                                                 "REWIND_CAPTURE_RECENT": "10"])
        #expect(app.waitForExit() == 0)
        let files = try captures(in: root)
        #expect(files.count == 2, "an offline part and a triggered capture: \(files.map(\.lastPathComponent))")
        for file in files {
            let bytes = try Data(contentsOf: file)
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(file.lastPathComponent) holds the password")
            #expect(bytes.range(of: Data("alice".utf8)) != nil, "\(file.lastPathComponent) holds what is not redacted")
        }
    }

    @Test("a daemon reached later ends the offline part and records the run from its start, offline actions included")
    func daemonReachedLater() throws {
        let root = try directory("later")
        defer { try? FileManager.default.removeItem(at: root) }
        let port = FreePort.next()
        let app = try ChildProcess(Executables.path("counter"), [],
                                   environment: ["REWIND_URL": "ws://127.0.0.1:\(port)",
                                                 "REWIND_CAPTURE_DIR": root.path])
        defer { app.closeInput(); _ = app.waitForExit() }
        for command in ["increment", "add 5", "decrement"] { app.write(command + "\n") }
        #expect(app.waitForLine(timeout: 10) { $0 == #"{"count":5}"# } != nil, "\(app.stdoutLines)")
        // The inspector's thread writes the part a moment after the app printed its state.
        let deadline = Date(timeIntervalSinceNow: TestTime.seconds(10))
        var files: [URL] = []
        while Date() < deadline {
            files = try captures(in: root)
            if let file = files.first, try String(contentsOf: file, encoding: .utf8).contains(#""seq":3"#) { break }
            usleep(20_000)
        }
        try #require(files.count == 1)

        let harness = try DaemonHarness(port: port)
        defer { harness.tearDown() }
        // The inspector retries at most a second apart; its hello brings the state it started from and what it
        // captured offline after it (its resend log), so the daemon's session holds the whole run.
        let session = try #require(harness.waitForSession(events: 3, app: "counter"), "the daemon recorded the run")
        app.write("add 10\n")
        #expect(harness.waitForSession(events: 4, app: "counter") != nil)
        let reader = try harness.daemon.store.openSession(session.id)
        #expect(try reader.events(1...4).map(\.label) == ["increment", "add", "decrement", "add"])
        #expect(try reader.state(at: 4) == ["count": 15])

        let lines = try lines(of: files[0])
        #expect(lines.last == ["type": "goodbye", "seq": 3], "the offline part ends where the daemon took over")
        #expect(try captures(in: root).count == 1, "nothing more is captured while the daemon records")
    }

    @Test("capture with no recent actions kept says how to keep them, and writes nothing")
    func captureWithNothingKept() throws {
        let root = try directory("nothing-kept")
        defer { try? FileManager.default.removeItem(at: root) }
        let app = try ChildProcess(Executables.path("counter"), ["--script", try script(["increment", "capture"], in: root)],
                                   environment: ["REWIND_URL": unreachable, "XDG_STATE_HOME": root.path])
        #expect(app.waitForExit() == 0)
        #expect(app.stderrLines.contains { $0.contains("cannot capture the last actions: none are kept (captureRecentActions is 0: set REWIND_CAPTURE_RECENT=N") },
                "\(app.stderrLines)")
        #expect(app.stderrLines.contains { $0.contains("nothing captured") })
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("rewind").path))
    }
}

