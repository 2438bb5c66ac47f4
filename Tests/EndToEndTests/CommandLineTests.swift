import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTestSupport
import RewindWire
import Testing

/// The `rewind` executable's commands that need a process of their own: a pipe that closes (`tail | head`), a
/// live app driven from another process, a server. The other commands are run in process by RewindCommandLineTests.
@Suite("rewind command line")
struct CommandLineTests {
    private func file(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-cli-\(UUID()).json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func rewind(_ arguments: [String]) throws -> (status: Int32?, out: [String], err: [String]) {
        let run = try RewindRun(arguments)
        return (run.status, run.stdout, run.stderr)
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
        let observers = harness.daemon.events.observerCount
        let tail = try ChildProcess(Executables.path("rewind"), ["tail", "--json", "--port", port])
        // Subscribed before the app starts, however slowly the process starts (sanitizers): it sees every event.
        try #require(harness.waitForEventObservers(observers + 1), "tail never subscribed: \(tail.stderrLines)")
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
