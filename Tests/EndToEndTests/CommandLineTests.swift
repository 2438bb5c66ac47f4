import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTestSupport
import RewindWire
import Testing

/// The `rewind` executable's utilities and session commands, run as a user runs them.
@Suite("rewind command line")
struct CommandLineTests {
    private func file(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-cli-\(UUID()).json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func rewind(_ arguments: [String], input: String? = nil) throws -> (status: Int32?, out: [String], err: [String]) {
        let run = try RewindRun(arguments, input: input)
        return (run.status, run.stdout, run.stderr)
    }

    @Test("diff prints the patch that turns A into B")
    func diffPrintsThePatch() throws {
        let a = try file(#"{"name":"a","items":[1,2,3],"keep":true}"#)
        let b = try file(#"{"name":"b","items":[1,2,3,4],"keep":true}"#)
        let run = try rewind(["diff", a, b])
        #expect(run.status == 0)
        let patch = try JSONPatch(json: try JSONValue(parsing: try #require(run.out.first)))
        #expect(try patch.apply(to: try JSONValue(parsing: #"{"name":"a","items":[1,2,3],"keep":true}"#))
                == JSONValue(parsing: #"{"name":"b","items":[1,2,3,4],"keep":true}"#))
        #expect(patch.operations.count == 2)
    }

    @Test("diff reads '-' as standard input")
    func diffReadsStandardInput() throws {
        let b = try file(#"{"x":2}"#)
        let run = try rewind(["diff", "-", b], input: #"{"x":1}"#)
        #expect(run.status == 0)
        #expect(run.out == [#"[{"op":"replace","path":"/x","value":2}]"#])
    }

    @Test("patch prints the patched document")
    func patchPrintsTheDocument() throws {
        let doc = try file(#"{"x":1}"#)
        let patch = try file(#"[{"op":"add","path":"/y","value":[true]},{"op":"remove","path":"/x"}]"#)
        let run = try rewind(["patch", doc, patch])
        #expect(run.status == 0)
        #expect(run.out == [#"{"y":[true]}"#])
    }

    @Test("a failing patch exits 1 naming the operation's index and pointer")
    func failingPatchNamesTheOperation() throws {
        let doc = try file(#"{"x":1}"#)
        let patch = try file(#"[{"op":"replace","path":"/x","value":2},{"op":"remove","path":"/missing"}]"#)
        let run = try rewind(["patch", doc, patch])
        #expect(run.status == 1)
        let message = run.err.joined(separator: "\n")
        #expect(message.contains("1"), "names operation index 1: \(message)")
        #expect(message.contains("/missing"), "names the pointer: \(message)")
        #expect(!message.contains("Fatal error"))
    }

    @Test("a missing or invalid file is a one-line error, not a trace")
    func badFilesAreClearErrors() throws {
        let missing = try rewind(["diff", "/nonexistent/a.json", "/nonexistent/b.json"])
        #expect(missing.status != 0)
        #expect(missing.err.first?.contains("cannot read '/nonexistent/a.json': no such file") == true)

        let invalid = try rewind(["diff", try file(#"{"x":"#), try file("{}")])
        #expect(invalid.status != 0)
        let message = invalid.err.joined(separator: "\n")
        #expect(message.contains("is not valid JSON"))
        #expect(message.contains("at byte 5"), "says where: \(message)")
    }

    @Test("sessions, export and import work on a recorded session")
    func sessionsExportImport() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let script = try file("increment\nadd 4\n")
        let app = try ChildProcess(Executables.path("counter"), ["--script", script],
                                   environment: ["REWIND_URL": harness.url])
        #expect(app.waitForExit() == 0)
        let session = try #require(harness.waitForSession(events: 2, app: "counter"))
        usleep(150_000)
        let data = harness.dataDirectory.path

        let listing = try rewind(["sessions", "--json", "--data", data])
        #expect(listing.status == 0)
        let row = try JSONValue(parsing: try #require(listing.out.first))
        #expect(row[try JSONPointer("/id")] == .string(session.id.rawValue))
        #expect(row[try JSONPointer("/events")] == 2)
        #expect(row[try JSONPointer("/app")] == "counter")

        let table = try rewind(["sessions", "--data", data])
        #expect(table.out.first?.hasPrefix("ID") == true)

        let export = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-cli-\(UUID()).json").path
        for format in ["jsonl", "redux-devtools"] {
            let exported = try rewind(["export", session.id.rawValue, "--format", format, "-o", export, "--data", data])
            #expect(exported.status == 0)
            let imported = try rewind(["import", export, "--data", data])
            #expect(imported.status == 0)
            let newID = try SessionID(validating: try #require(imported.out.first?.split(separator: " ").last.map(String.init)))
            let reader = try harness.daemon.store.openSession(newID)
            #expect(try reader.state(at: reader.eventCount) == ["count": 5])
        }

        let unknown = try rewind(["export", "no-such-session", "--data", data])
        #expect(unknown.status == 1)
        #expect(unknown.err.first?.hasPrefix("Error:") == true)
    }

    @Test("commands that need a running daemon say so when there is none")
    func noDaemon() throws {
        let run = try rewind(["jump", "some-session", "1", "--port", "\(FreePort.next())"])
        #expect(run.status == 1)
        #expect(run.err.first?.contains("no rewind daemon is running") == true)
    }

    @Test("tail piped into head: when head has its lines, tail ends quietly (status 0, no crash report)",
          arguments: [["tail"], ["tail", "--json"]])
    func tailIntoHead(_ command: [String]) throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let tail = ([Executables.path("rewind")] + command + ["--port", "\(harness.port)"]).joined(separator: " ")
        let pipeline = try ChildProcess("/bin/bash", ["-c", "set -o pipefail; \(tail) | head -2"])
        // Commands typed into the app until the pipeline ends: however late tail connects, events keep coming.
        let app = try ChildProcess(Executables.path("counter"), [], environment: ["REWIND_URL": harness.url])
        defer { app.closeInput() }
        var status: Int32?
        for number in 1...Int(TestTime.seconds(300)) where status == nil {
            app.write("add \(number)\n")
            status = pipeline.waitForExit(timeout: 0.05)
        }
        #expect(status == 0, "tail's status: \(pipeline.stderrLines)")
        #expect(pipeline.stdoutLines.count == 2)
        #expect(!pipeline.stderrLines.contains { $0.contains("Fatal error") || $0.contains("Stack dump") })
        if command == ["tail"] {
            // Each `add` changes one field: one operation, said so.
            #expect(pipeline.stdoutLines.contains { $0.contains("(1 op)") }, "\(pipeline.stdoutLines)")
            #expect(!pipeline.stdoutLines.contains { $0.contains("(1 ops)") })
        }
    }

    @Test("tail --json streams live events; jump and dispatch drive the live app")
    func tailJumpDispatch() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let port = "\(harness.port)"
        let tail = try ChildProcess(Executables.path("rewind"), ["tail", "--json", "--port", port])
        usleep(300_000)
        let app = try ChildProcess(Executables.path("counter"), ["--script", try file("add 2\nadd 3\n"), "--stay"],
                                   environment: ["REWIND_URL": harness.url])
        defer { app.closeInput() }
        let session = try #require(harness.waitForSession(events: 2, app: "counter"))

        let second = try #require(tail.waitForLine(timeout: 5) { $0.contains(#""index":2"#) })
        let line = try JSONValue(parsing: second)
        #expect(line[try JSONPointer("/session")] == .string(session.id.rawValue))
        #expect(line[try JSONPointer("/event/label")] == "add")
        #expect(line[try JSONPointer("/event/patch/0/value")] == 5)

        let jump = try rewind(["jump", session.id.rawValue, "1", "--port", port])
        #expect(jump.status == 0)
        #expect(app.waitForLine(timeout: 5) { $0 == #"{"count":2}"# } != nil)
        #expect(tail.waitForLine(timeout: 5) { $0.contains(#""kind":"jump""#) } != nil)

        let dispatch = try rewind(["dispatch", session.id.rawValue, #"{"add":{"_0":40}}"#, "--port", port])
        #expect(dispatch.status == 0)
        #expect(app.waitForLine(timeout: 5) { $0 == #"{"count":42}"# } != nil)

        let refused = try rewind(["dispatch", session.id.rawValue, #"{"multiply":{}}"#, "--port", port])
        #expect(refused.status == 1)
        #expect(refused.err.first?.contains("command_failed") == true)
        // Not "Invalid number of keys found, expected one" (issue 31): what went wrong, and the recorded actions.
        #expect(refused.err.first?.contains(#""multiply" is not a case of CounterAction"#) == true, "\(refused.err)")
        #expect(refused.err.first?.contains(#"the actions this session recorded (one of each): {"add":{"_0":40}}"#) == true,
                "\(refused.err)")
        let notJSON = try rewind(["dispatch", session.id.rawValue, "{oops", "--port", port])
        #expect(notJSON.status == 1)
        #expect(notJSON.err.first?.contains("not valid JSON") == true)
    }

    @Test("skip with neither SEQ nor --branch says that one of them is needed (issue 31: it said \"not both\")")
    func skipNeedsAnEventOrABranch() throws {
        let skip = try rewind(["skip", "some-session", "--port", "\(FreePort.next())"])
        #expect(skip.status == 64)
        #expect(skip.err.first?.contains("give the event to skip (SEQ) or --branch B:") == true, "\(skip.err)")
        #expect(!skip.err.joined().contains("not both"), "\(skip.err)")
    }

    @Test("an event number below 0 is named as such (issue 31: \"Missing expected argument\")", arguments: [
        ["jump", "some-session", "-3"], ["skip", "some-session", "-3"], ["diff", "some-session", "1", "-3"],
    ])
    func negativeEventNumbers(_ command: [String]) throws {
        let run = try rewind(command)
        #expect(run.status == 64)
        #expect(run.err.first == "Error: '-3' is not an event number: events are numbered from 0 (the initial "
                + "state) to the session's last event (its EVENTS in 'rewind sessions')", "\(run.err)")
    }

    @Test("diff and patch refuse '-' for both files: standard input is read once (issue 31)", arguments: [
        ["diff", "-", "-"], ["patch", "-", "-"],
    ])
    func standardInputOnce(_ command: [String]) throws {
        let run = try rewind(command, input: #"{"x":1}"#)
        #expect(run.status == 64)
        #expect(run.err.first?.contains("may be '-': standard input is read once") == true, "\(run.err)")
    }

    @Test("an unknown option without a command names it and lists the commands, not the serve usage (issue 31)",
          arguments: [["--frobnicate"], ["--port", "7723", "--frobnicate"]])
    func unknownOptionWithoutACommand(_ arguments: [String]) throws {
        let run = try rewind(arguments)
        #expect(run.status == 64)
        let message = run.err.joined(separator: "\n")
        #expect(message.hasPrefix("Error: Unknown option '--frobnicate' (not an option of 'rewind', nor of "
                                  + "'rewind serve'"), "\(message)")
        #expect(message.contains("Commands: serve, sessions, open"), "lists the commands: \(message)")
        #expect(!message.contains("Usage: rewind serve"), "\(message)")
    }

    @Test("patch with a document for a patch says it is not an object but an array of operations (issue 31)")
    func patchThatIsAnObject() throws {
        let doc = try file(#"{"x":1}"#)
        let run = try rewind(["patch", doc, doc])
        #expect(run.status == 1)
        let message = run.err.joined(separator: "\n")
        #expect(message.contains("a JSON Patch must be an array of operations, not an object"), "\(message)")
        #expect(message.contains(#"[{"op":"replace","path":"/count","value":1}]"#), "shows one: \(message)")
        #expect(!message.contains("a object"), "\(message)")
    }

    @Test("serving beyond loopback names --token-file: refused without a token, warned with --token (issue 31)")
    func servingBeyondLoopbackNamesTheTokenFile() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-cli-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let refused = try rewind(["serve", "--headless", "--host", "0.0.0.0", "--port", "0", "--data", data])
        #expect(refused.status == 1)
        #expect(refused.err.first?.contains("requires a token: pass --token-file PATH") == true, "\(refused.err)")

        let serve = try ChildProcess(Executables.path("rewind"), ["serve", "--headless", "--host", "0.0.0.0", "--port",
                                                                  "0", "--data", data, "--token", "secret"])
        defer {
            serve.signal(SIGTERM)
            _ = serve.waitForExit()
        }
        let warning = serve.waitForLine(timeout: 10, stderr: true) { $0.contains("--token-file") }
        #expect(warning?.contains("every local user can read in 'ps'") == true, "\(serve.stderrLines)")
    }
}
