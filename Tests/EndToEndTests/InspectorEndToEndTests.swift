import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTestSupport
import RewindWire
import Testing

/// The inspector middleware in real apps (the samples, as processes) streaming into a real daemon over a real
/// socket.
@Suite("Inspector end to end", .serialized)
struct InspectorEndToEndTests {
    private func script(_ lines: [String]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-script-\(UUID()).txt").path
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("a counter's actions are recorded in order, each with its patch, and the recorded state is the app's")
    func counterSessionIsRecorded() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let app = try ChildProcess(Executables.path("counter"),
                                   ["--script", try script(["increment", "add 5", "decrement", #"{"add":{"_0":10}}"#])],
                                   environment: ["REWIND_URL": harness.url])
        #expect(app.waitForExit() == 0)
        let final = try JSONValue(parsing: try #require(app.stdoutLines.last))

        let session = try #require(harness.waitForSession(events: 4, app: "counter"))
        let reader = try harness.daemon.store.openSession(session.id)
        let events = try reader.events(1...4)
        #expect(events.map(\.label) == ["increment", "add", "decrement", "add"])
        #expect(events.map(\.kind) == [.action, .action, .action, .action])
        #expect(events.map { $0.patch?.operations.count } == [1, 1, 1, 1])
        #expect(events.map(\.appSeq) == [1, 2, 3, 4])
        #expect(try reader.state(at: 4) == final)
        #expect(try reader.state(at: 2) == ["count": 6])
        #expect(reader.metadata.stateType == "counter.CounterState")
    }

    @Test("after 10,000 random actions the daemon's reconstruction equals the app's state")
    func randomActionsReconstructExactly() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let app = try ChildProcess(Executables.path("stress"),
                                   ["--count", "10000", "--seed", "7", "--state-bytes", "5000", "--print-state",
                                    // 10,000 whole 5 kB states, encoded by a debug build beside the rest of the
                                    // suite: on a loaded machine that took more than the usual 30 s.
                                    "--deliver-timeout", String(TestTime.seconds(90))],
                                   // Every state of the burst kept (none coalesced), so that each of the
                                   // 10,000 patches is checked: a budget that holds them all, however slowly the
                                   // pipeline (a sanitizer's) takes them — and whose resident-memory line (half
                                   // the budget) the burst's held states cannot reach on a loaded machine (at
                                   // 256 MiB, 3–6 ranges were coalesced now and then under the whole suite).
                                   environment: ["REWIND_URL": harness.url,
                                                 "REWIND_OUTBOX_BYTES": "\(Int(TestTime.scale) << 30)"])
        #expect(app.waitForExit(timeout: TestTime.seconds(120)) == 0)
        let reportLine = try #require(app.stderrLines.last)
        let report = try JSONValue(parsing: reportLine)
        #expect(report[try JSONPointer("/delivered")] == .bool(true),
                "the app's report: \(reportLine); its standard error: \(app.stderrLines.dropLast().suffix(5))")
        let final = try JSONValue(parsing: try #require(app.stdoutLines.last))

        let session = try #require(harness.waitForSession(events: 10_000, app: "stress"))
        #expect(session.lastIndex == 10_000)
        #expect(try harness.lastRecordedState(session) == final)
        let reader = try harness.daemon.store.openSession(session.id)
        #expect(try reader.events(1...10_000).allSatisfy { $0.kind == .action })
    }

    @Test("an app started before the daemon arrives complete once the daemon starts")
    func daemonStartedLate() throws {
        let port = FreePort.next()
        let app = try ChildProcess(Executables.path("stress"),
                                   ["--duration", "3", "--rate", "500", "--mix", "touch", "--print-state"]
                                       + TestTime.stressDeliveryArguments,
                                   environment: ["REWIND_URL": "ws://127.0.0.1:\(port)"])
        usleep(1_000_000)
        let harness = try DaemonHarness(port: port)
        defer { harness.tearDown() }
        #expect(app.waitForExit(timeout: 30) == 0)
        let final = try JSONValue(parsing: try #require(app.stdoutLines.last))
        let session = try #require(harness.waitForSession(app: "stress"))
        #expect(try harness.lastRecordedState(session) { $0 == final } == final)
    }

    @Test("jump puts a recorded state into the live app, and the app's subscribers see it")
    func jumpReachesTheApp() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let app = try ChildProcess(Executables.path("counter"),
                                   ["--script", try script(["add 1", "add 2", "add 3"]), "--stay"],
                                   environment: ["REWIND_URL": harness.url])
        defer { app.closeInput() }
        let session = try #require(harness.waitForSession(events: 3, app: "counter"))

        #expect(app.waitForLine(timeout: 5) { $0 == #"{"count":6}"# } != nil)
        let linesBefore = app.stdoutLines.count
        let result = harness.daemon.waitFor { harness.daemon.jump(session: session.id, to: 1, completion: $0) }
        #expect(throws: Never.self) { try result.get() }
        #expect(app.waitForLine(timeout: 5, after: linesBefore) { $0 == #"{"count":1}"# } != nil)

        // The jump is on the timeline, and the app's next action continues from the jumped-to state.
        #expect(harness.waitForSession(events: 4)?.lastIndex == 4)
        let reader = try harness.daemon.store.openSession(session.id)
        #expect(try reader.event(at: 4).kind == .jump)
        // The row says which event it jumped to (issue 22: it said "jump" only).
        #expect(try reader.event(at: 4).label == "jump to #1")
        #expect(try reader.event(at: 4).detail == "jumped to the state after event 1")
        // And says it as facts a reader need not parse (schema 2's meaning): the target, and the app's reason.
        #expect(try reader.event(at: 4).meaning.jumpTarget == 1)
        #expect(try reader.event(at: 4).meaning.stateReason == "jump")
        #expect(try reader.state(at: 4) == ["count": 1])
        _ = harness.daemon.waitFor {
            harness.daemon.dispatch(session: session.id, action: ["add": ["_0": 10]], completion: $0)
        }
        #expect(app.waitForLine(timeout: 5, after: linesBefore) { $0 == #"{"count":11}"# } != nil)
    }

    @Test("an undecodable action is answered with ok false naming the field, and the app keeps running")
    func undecodableDispatch() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let app = try ChildProcess(Executables.path("counter"), ["--script", try script(["add 2"]), "--stay"],
                                   environment: ["REWIND_URL": harness.url])
        defer { app.closeInput() }
        let session = try #require(harness.waitForSession(events: 1, app: "counter"))

        let bad = harness.daemon.waitFor {
            harness.daemon.dispatch(session: session.id, action: ["add": ["_0": "many"]], completion: $0)
        }
        guard case .failure(let error) = bad else {
            Issue.record("an undecodable action was accepted")
            return
        }
        #expect(error.code == .commandFailed)
        #expect(error.description.contains("cannot decode action"))
        #expect(error.description.contains("add._0"))

        // An action in another shape ({"type": …}, which Redux apps use) is refused naming the cases it meant, in the
        // shape this app's Swift enum decodes (issue 22: the error only said "Invalid number of keys found").
        let typed = harness.daemon.waitFor {
            harness.daemon.dispatch(session: session.id, action: ["type": "increment"], completion: $0)
        }
        guard case .failure(let typedError) = typed else {
            Issue.record("{\"type\":\"increment\"} was accepted")
            return
        }
        #expect(typedError.description.contains(#"did you mean {"increment":{}}?"#), "\(typedError)")
        let withValue = harness.daemon.waitFor {
            harness.daemon.dispatch(session: session.id, action: ["type": "counter/add", "amount": 2], completion: $0)
        }
        guard case .failure(let withValueError) = withValue else {
            Issue.record("{\"type\":\"counter/add\"} was accepted")
            return
        }
        #expect(withValueError.description.contains(#"did you mean {"add":{"_0":…}}?"#), "\(withValueError)")

        let good = harness.daemon.waitFor {
            harness.daemon.dispatch(session: session.id, action: ["increment": [:]], completion: $0)
        }
        #expect(throws: Never.self) { try good.get() }
        #expect(app.waitForLine(timeout: 5) { $0 == #"{"count":3}"# } != nil)
    }

    @Test("a mistyped action is refused as not understood, naming the actions the session recorded (issue 31)")
    func mistypedDispatchNamesTheRecordedCases() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let app = try ChildProcess(Executables.path("counter"), ["--script", try script(["add 2", "increment"]), "--stay"],
                                   environment: ["REWIND_URL": harness.url])
        defer { app.closeInput() }
        let session = try #require(harness.waitForSession(events: 2, app: "counter"))

        let mistyped = harness.daemon.waitFor {
            harness.daemon.dispatch(session: session.id, action: ["ad": ["_0": 5]], completion: $0)
        }
        guard case .failure(let error) = mistyped else {
            Issue.record("{\"ad\":…} was accepted")
            return
        }
        let message = error.description
        #expect(error.code == .commandFailed)
        #expect(!message.contains("Invalid number of keys"), "\(message)")
        #expect(message.contains(#"the app did not understand the action: "ad" is not a case of CounterAction"#),
                "\(message)")
        #expect(message.contains("an action is an object with exactly one member, named after one of the cases"),
                "says the shape: \(message)")
        #expect(message.contains(#"the actions this session recorded (one of each): {"add":{"_0":2}}, {"increment":{}}"#),
                "names the cases recorded: \(message)")

        // Several members: none is a case, and each is named.
        let two = harness.daemon.waitFor {
            harness.daemon.dispatch(session: session.id, action: ["ad": [:], "incremnt": [:]], completion: $0)
        }
        guard case .failure(let twoError) = two else {
            Issue.record("an action with two members was accepted")
            return
        }
        #expect(twoError.description.contains(#"none of its members ("ad", "incremnt") is a case of CounterAction"#),
                "\(twoError)")
        let good = harness.daemon.waitFor {
            harness.daemon.dispatch(session: session.id, action: ["increment": [:]], completion: $0)
        }
        #expect(throws: Never.self) { try good.get() }
    }

    @Test("replay resets the app to a recorded state and runs the recorded actions with effects muted")
    func replayIntoTheApp() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let app = try ChildProcess(Executables.path("counter"),
                                   ["--script", try script(["add 1", "add 2", "add 3", "reset"]), "--stay"],
                                   environment: ["REWIND_URL": harness.url])
        defer { app.closeInput() }
        let session = try #require(harness.waitForSession(events: 4, app: "counter"))

        let result = harness.daemon.waitFor {
            harness.daemon.replay(session: session.id, from: 2, to: 3, into: session.id, completion: $0)
        }
        let replayed = try result.get()
        #expect(replayed.states == [["count": 3], ["count": 6]])
        #expect(app.waitForLine(timeout: 5) { $0 == #"{"count":6}"# } != nil)
        // The row recording the state the replay put in place says which events it replayed.
        #expect(harness.waitForSession(events: 5)?.lastIndex == 5)
        let row = try harness.daemon.store.openSession(session.id).event(at: 5)
        #expect(row.kind == .replay)
        #expect(row.label == "replay of #2–#3")
        #expect(row.detail == "replayed the 2 actions of events 2–3 from the state after event 1")
    }

    @Test("replay into the app of another state type is refused up front naming both types (issue 31)")
    func replayIntoAnotherStateType() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let counter = try ChildProcess(Executables.path("counter"), ["--script", try script(["add 1", "add 2"])],
                                       environment: ["REWIND_URL": harness.url])
        #expect(counter.waitForExit() == 0)
        let source = try #require(harness.waitForSession(events: 2, app: "counter"))
        let todo = try ChildProcess(Executables.path("todo"), ["--script", try script([]), "--stay"],
                                    environment: ["REWIND_URL": harness.url])
        defer { todo.closeInput() }
        let target = try #require(harness.waitForSession(app: "todo"))
        let recorded = try #require(source.stateType), live = try #require(target.stateType)
        #expect(recorded != live)

        let result = harness.daemon.waitFor {
            harness.daemon.replay(session: source.id, into: target.id, completion: $0)
        }
        guard case .failure(let error) = result else {
            Issue.record("a counter session was replayed into a todo app")
            return
        }
        #expect(error.code == .commandFailed)
        #expect(error.description == "session \(source.id) recorded states of type \(recorded), but the app of session "
                + "\(target.id) has states of type \(live): its actions cannot be replayed there; nothing was replayed")
        #expect(try harness.daemon.store.openSession(target.id).events(1...max(1, target.lastIndex))
                    .allSatisfy { $0.kind != .replay }, "nothing reached the todo app")

        // A paced replay (the command line sends one action at a time) is refused the same way, before it sends.
        for pace in [["--speed", "10"], ["--step"]] {
            let run = try ChildProcess(Executables.path("rewind"),
                                       ["replay", source.id.rawValue, "--into", target.id.rawValue, "--port",
                                        "\(harness.port)"] + pace)
            run.closeInput()
            #expect(run.waitForExit(timeout: 30) != 0)
            let said = run.stderrLines.joined(separator: "\n")
            #expect(said.contains("session \(source.id) recorded states of type \(recorded), but the app of session "
                                  + "\(target.id) has states of type \(live)"), "\(pace): \(said)")
            #expect(!said.contains("missing field") && !said.contains("cannot decode"), "\(said)")
        }
        #expect(try harness.daemon.store.openSession(target.id).events(1...max(1, harness.daemon.store.openSession(target.id).eventCount))
                    .allSatisfy { $0.kind != .replay }, "nothing reached the todo app")
    }
}

/// `rewind verify`: a recorded session replayed into a fresh run of the app.
@Suite("Verify end to end", .serialized)
struct VerifyEndToEndTests {
    private func record(_ commands: [String], in harness: DaemonHarness) throws -> SessionID {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-verify-\(UUID()).txt").path
        try commands.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let app = try ChildProcess(Executables.path("counter"), ["--script", path],
                                   environment: ["REWIND_URL": harness.url])
        #expect(app.waitForExit() == 0)
        let session = try #require(harness.waitForSession(events: Int64(commands.count), app: "counter"))
        usleep(100_000)
        return session.id
    }

    private func verify(_ session: SessionID, data: URL, app: [String], json: Bool = true) throws -> ChildProcess {
        let process = try ChildProcess(Executables.path("rewind"),
                                       ["verify", session.rawValue, "--data", data.path] + (json ? ["--json"] : [])
                                           + ["--"] + app)
        process.waitForExit(timeout: 60)
        return process
    }

    @Test("an unchanged app verifies every recorded event")
    func unchangedAppVerifies() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let session = try record(["increment", "add 5", "decrement", "add 10", "reset", "add 3"], in: harness)
        let run = try verify(session, data: harness.dataDirectory, app: [Executables.path("counter")], json: false)
        #expect(run.waitForExit() == 0)
        #expect(run.stdoutLines == ["verified 6 events"])
    }

    @Test("an altered recorded patch is found at its event, with the diff")
    func alteredPatchDiverges() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let session = try record(["increment", "add 5", "decrement", "add 10"], in: harness)
        let export = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-verify-\(UUID()).jsonl")
        defer { try? FileManager.default.removeItem(at: export) }
        try SessionExporter(reader: try harness.daemon.store.openSession(session)).export(format: .jsonl, to: export)
        let edited = try String(contentsOf: export, encoding: .utf8).split(separator: "\n").map { line -> String in
            line.contains(#""index":3,"#) ? line.replacingOccurrences(of: #""value":5"#, with: #""value":42"#)
                                         : String(line)
        }.joined(separator: "\n")
        try edited.write(to: export, atomically: true, encoding: .utf8)
        let imported = try SessionImporter(store: harness.daemon.store).importSession(from: export).id

        let run = try verify(imported, data: harness.dataDirectory, app: [Executables.path("counter")])
        #expect(run.waitForExit() == 1)
        let outcome = try JSONValue(parsing: try #require(run.stdoutLines.last))
        #expect(outcome[try JSONPointer("/ok")] == false)
        #expect(outcome[try JSONPointer("/seq")] == 3)
        #expect(outcome[try JSONPointer("/label")] == "decrement")
        #expect(outcome[try JSONPointer("/diff")] == [["op": "replace", "path": "/count", "value": 5]])
    }

    @Test("an app with a different reducer fails at the first event it computes differently")
    func differentReducerDiverges() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let session = try record(["increment", "add 5", "decrement", "add 10"], in: harness)
        // COUNTER_DECREMENT_STEP=2 makes the counter's `decrement` subtract two: a deliberately different reducer.
        let run = try ChildProcess(Executables.path("rewind"),
                                   ["verify", session.rawValue, "--data", harness.dataDirectory.path, "--json", "--",
                                    "/usr/bin/env", "COUNTER_DECREMENT_STEP=2", Executables.path("counter")])
        #expect(run.waitForExit(timeout: 60) == 1)
        let outcome = try JSONValue(parsing: try #require(run.stdoutLines.last))
        #expect(outcome[try JSONPointer("/seq")] == 3)
        #expect(outcome[try JSONPointer("/actual")] == ["count": 4])
        #expect(outcome[try JSONPointer("/recorded")] == ["count": 5])
    }

    @Test("an app whose state type differs is refused before anything is replayed")
    func differentStateTypeIsRefused() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let session = try record(["increment"], in: harness)
        let run = try verify(session, data: harness.dataDirectory, app: [Executables.path("stress"), "--stay", "--count", "0"])
        #expect(run.waitForExit() == 1)
        let outcome = try JSONValue(parsing: try #require(run.stdoutLines.last))
        guard case .string(let message)? = outcome[try JSONPointer("/error")] else {
            Issue.record("no error in \(outcome)")
            return
        }
        #expect(message.contains("stress.StressState"))
    }
}
