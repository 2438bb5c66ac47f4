import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTestSupport
import RewindWire
import Testing

/// Skip / un-skip with branches and paced replay, against the counter sample run as a process.
@Suite("Time travel end to end", .serialized)
struct TimeTravelTests {
    private func script(_ lines: [String]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-tt-\(UUID()).txt").path
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The counter's reducer, restated: the count after each command, starting from `count`.
    private func counts(_ commands: [String], from count: Int) -> [JSONValue] {
        var count = count
        return commands.map { command in
            let words = command.split(separator: " ")
            switch words[0] {
            case "increment": count += 1
            case "decrement": count -= 1
            case "add": count += Int(words[1]) ?? 0
            default: count = 0
            }
            return ["count": .int(Int64(count))]
        }
    }

    private func line(_ state: JSONValue) -> String { state.serialized() }

    @Test("skipping an action recomputes the later states through the app's reducer, on a branch; un-skip and branch flips restore")
    func skipRecomputesOnABranch() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let commands = ["add 1", "add 2", "add 3", "increment", "add 10"]
        let app = try ChildProcess(Executables.path("counter"), ["--script", try script(commands), "--stay"],
                                   environment: ["REWIND_URL": harness.url])
        defer { app.closeInput() }
        let session = try #require(harness.waitForSession(events: 5, app: "counter"))
        let original = counts(commands, from: 0)
        #expect(app.waitForLine(timeout: 5) { $0 == self.line(original[4]) } != nil)
        let daemon = harness.daemon

        // Skip event 2: the states of events 3…5 recomputed from the state after event 1.
        var before = app.stdoutLines.count
        let first = try daemon.waitForOutcome(timeout: TestTime.seconds(30)) { daemon.skip(session: session.id, index: 2, completion: $0) }.get()
        let withoutTwo = counts(["add 3", "increment", "add 10"], from: 1)
        #expect(first.skipped == [2])
        #expect(first.branch == 1)
        #expect(first.states == withoutTwo)
        #expect(first.finalState == withoutTwo.last)
        #expect(app.waitForLine(timeout: 5, after: before) { $0 == self.line(withoutTwo[2]) } != nil)

        session.flush()
        var reader = try daemon.store.openSession(session.id)
        #expect(try reader.branches() == [0, 1])
        let branch = try reader.eventsOnAllBranches(1...reader.eventCount).filter { $0.branch == 1 }
        #expect(branch.map(\.kind) == [.note, .action, .action, .action])
        #expect(branch.dropFirst().map(\.label) == ["add", "increment", "add"])
        #expect(branch.dropFirst().map(\.detail) == ["recomputes event 3", "recomputes event 4", "recomputes event 5"])
        for (event, expected) in zip(branch.dropFirst(), withoutTwo) {
            #expect(try reader.state(at: event.index, branch: 1) == expected)
        }
        #expect(try reader.state(at: reader.eventCount, branch: 1) == withoutTwo.last)
        // The main line keeps its recorded states and marks the toggle.
        #expect(try reader.state(at: 5) == original[4])
        let toggles = try reader.events(1...reader.eventCount).filter { $0.kind == .skip }
        #expect(toggles.map(\.label) == ["skip"])
        // The rows state what they mean (issue 29): which event was skipped and on which branch it was recomputed,
        // and from which main-line state the branch starts.
        #expect(toggles.first?.meaning.skip == SkipMark(event: 2, skipped: true, branch: 1))
        #expect(branch.first?.meaning.branchFrom == 1)

        // Skip event 4 as well: both are left out.
        before = app.stdoutLines.count
        let second = try daemon.waitForOutcome(timeout: TestTime.seconds(30)) { daemon.skip(session: session.id, index: 4, completion: $0) }.get()
        let withoutTwoAndFour = counts(["add 3", "add 10"], from: 1)
        #expect(second.skipped == [2, 4])
        #expect(second.branch == 2)
        #expect(second.states == withoutTwoAndFour)
        #expect(app.waitForLine(timeout: 5, after: before) { $0 == self.line(withoutTwoAndFour[1]) } != nil)

        // Flip: the main line, then the first branch.
        before = app.stdoutLines.count
        _ = try daemon.waitFor { daemon.showBranch(session: session.id, branch: 0, completion: $0) }.get()
        #expect(app.waitForLine(timeout: 5, after: before) { $0 == self.line(original[4]) } != nil)
        before = app.stdoutLines.count
        _ = try daemon.waitFor { daemon.showBranch(session: session.id, branch: 1, completion: $0) }.get()
        #expect(app.waitForLine(timeout: 5, after: before) { $0 == self.line(withoutTwo[2]) } != nil)

        // Un-skip 4, then 2: back on the main line's last state.
        let third = try daemon.waitForOutcome(timeout: TestTime.seconds(30)) { daemon.skip(session: session.id, index: 4, completion: $0) }.get()
        #expect(third.skipped == [2])
        #expect(third.states == withoutTwo)
        before = app.stdoutLines.count
        let last = try daemon.waitForOutcome(timeout: TestTime.seconds(30)) { daemon.skip(session: session.id, index: 2, completion: $0) }.get()
        #expect(last.skipped == [])
        #expect(last.branch == 0)
        #expect(last.finalState == original[4])
        #expect(app.waitForLine(timeout: 5, after: before) { $0 == self.line(original[4]) } != nil)

        session.flush()
        reader = try daemon.store.openSession(session.id)
        #expect(try reader.events(1...reader.eventCount).filter { $0.kind == .skip }.map(\.label)
                == ["skip", "skip", "unskip", "unskip"])
        #expect(try reader.events(1...reader.eventCount).filter { $0.kind == .skip }.map(\.meaning.skip)
                == [SkipMark(event: 2, skipped: true, branch: 1), SkipMark(event: 4, skipped: true, branch: 2),
                    SkipMark(event: 4, skipped: false, branch: 3), SkipMark(event: 2, skipped: false)])
        #expect(try reader.branches() == [0, 1, 2, 3])
    }

    @Test("a long recomputation goes to the app in one replay whose answer, in portions, stays under the message limit")
    func skipRecomputesInSegments() throws {
        // 8 KiB messages: the 40 actions and the counter's state fit a quarter of the limit, so one `replay` carries
        // them; the app answers in portions of patches, each under the limit.
        let harness = try DaemonHarness { $0.maxMessageBytes = 8192 }
        defer { harness.tearDown() }
        let commands = ["add 100"] + Array(repeating: "increment", count: 40)
        // Typed one at a time (interactive mode), so that the app's batches stay small under this limit too.
        let app = try ChildProcess(Executables.path("counter"), [], environment: ["REWIND_URL": harness.url])
        defer { app.closeInput() }
        for (command, state) in zip(commands, counts(commands, from: 0)) {
            let before = app.stdoutLines.count
            app.write(command + "\n")
            try #require(app.waitForLine(timeout: 5, after: before) { $0 == self.line(state) } != nil)
        }
        let session = try #require(harness.waitForSession(events: 41, app: "counter"))

        let before = app.stdoutLines.count
        let daemon = harness.daemon
        let outcome = try daemon.waitForOutcome(timeout: TestTime.seconds(30)) { daemon.skip(session: session.id, index: 1, completion: $0) }.get()
        #expect(outcome.states == counts(Array(commands.dropFirst()), from: 0))
        #expect(app.waitForLine(timeout: 5, after: before) { $0 == #"{"count":40}"# } != nil)
        #expect(harness.waitForSession(events: 41 + 1 + 41 + 1) != nil)
        session.flush()
        let reader = try daemon.store.openSession(session.id)
        #expect(try reader.state(at: reader.eventCount, branch: 1) == ["count": 40])
        // One `replay` snapshot: one segment, one part (issue 31: a part per few actions cluttered the main line).
        #expect(try reader.events(1...reader.eventCount).filter { $0.kind == .replay }.count == 1)
    }

    @Test("only actions of the main line can be skipped, and a missing branch is refused")
    func skipRefusesWhatIsNotAnAction() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let app = try ChildProcess(Executables.path("counter"), ["--script", try script(["add 1", "add 2"]), "--stay"],
                                   environment: ["REWIND_URL": harness.url])
        defer { app.closeInput() }
        let session = try #require(harness.waitForSession(events: 2, app: "counter"))
        let daemon = harness.daemon
        for index in [Int64(0), 99] {
            let result = daemon.waitForOutcome(timeout: TestTime.seconds(10)) { daemon.skip(session: session.id, index: index, completion: $0) }
            guard case .failure(let error) = result else {
                Issue.record("event \(index) was skipped")
                continue
            }
            #expect(error.code == .badField)
        }
        let flip = daemon.waitFor { daemon.showBranch(session: session.id, branch: 7, completion: $0) }
        guard case .failure(let error) = flip else {
            Issue.record("branch 7 was shown")
            return
        }
        #expect(error.code == .badField)
        #expect(error.description.contains("no branch 7"))
    }

    @Test("rewind skip toggles an action and --branch flips the app")
    func skipCommandLine() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let app = try ChildProcess(Executables.path("counter"),
                                   ["--script", try script(["add 1", "add 2", "add 3"]), "--stay"],
                                   environment: ["REWIND_URL": harness.url])
        defer { app.closeInput() }
        let session = try #require(harness.waitForSession(events: 3, app: "counter"))
        #expect(app.waitForLine(timeout: 5) { $0 == #"{"count":6}"# } != nil)
        let port = "\(harness.port)"

        var before = app.stdoutLines.count
        let skip = try ChildProcess(Executables.path("rewind"), ["skip", session.id.rawValue, "2", "--port", port])
        #expect(skip.waitForExit(timeout: 30) == 0)
        #expect(skip.stdoutLines == ["\(session.id.rawValue): skipping event 2; 1 state recomputed on branch 1"])
        #expect(app.waitForLine(timeout: 5, after: before) { $0 == #"{"count":4}"# } != nil)

        before = app.stdoutLines.count
        let flip = try ChildProcess(Executables.path("rewind"),
                                    ["skip", session.id.rawValue, "--branch", "0", "--port", port])
        #expect(flip.waitForExit(timeout: 30) == 0)
        #expect(app.waitForLine(timeout: 5, after: before) { $0 == #"{"count":6}"# } != nil)

        let both = try ChildProcess(Executables.path("rewind"),
                                    ["skip", session.id.rawValue, "2", "--branch", "0", "--port", port])
        #expect(both.waitForExit(timeout: 30) != 0)
    }

    // MARK: - Paced replay

    /// Records `commands` from one counter run that then quits; with `gap`, the recorded times are rewritten
    /// (export, edit, import) so that the actions are `gap` seconds apart. Returns the saved session and its
    /// recorded states.
    private func savedSession(_ commands: [String], gap: Double?, in harness: DaemonHarness) throws
        -> (SessionID, [JSONValue]) {
        let app = try ChildProcess(Executables.path("counter"), ["--script", try script(commands)],
                                   environment: ["REWIND_URL": harness.url])
        #expect(app.waitForExit() == 0)
        let live = try #require(harness.waitForSession(events: Int64(commands.count), app: "counter"))
        live.flush()
        let reader = try harness.daemon.store.openSession(live.id)
        let states = try (1...Int64(commands.count)).map { index in try reader.state(at: index) }
        guard let gap else { return (live.id, states) }

        let export = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-tt-\(UUID()).jsonl")
        defer { try? FileManager.default.removeItem(at: export) }
        try SessionExporter(reader: reader).export(format: .jsonl, to: export)
        let lines = try String(contentsOf: export, encoding: .utf8).split(separator: "\n").map { line -> String in
            guard case .object(var object) = try JSONValue(parsing: String(line)),
                  let index = object["index"]?.int64Value else { return String(line) }
            object["time"] = .double(1_700_000_000 + Double(index) * gap)
            return JSONValue.object(object).serialized()
        }
        try lines.joined(separator: "\n").write(to: export, atomically: true, encoding: .utf8)
        let imported = try SessionImporter(store: harness.daemon.store).importSession(from: export).id
        return (imported, states)
    }

    /// A fresh counter waiting on standard input, and its live session.
    private func freshCounter(in harness: DaemonHarness, besides others: Set<SessionID>) throws
        -> (ChildProcess, SessionID) {
        let app = try ChildProcess(Executables.path("counter"), ["--script", try script([]), "--stay"],
                                   environment: ["REWIND_URL": harness.url])
        let deadline = Date(timeIntervalSinceNow: TestTime.seconds(15))
        while Date() < deadline {
            if let live = harness.daemon.sessions.first(where: { $0.isLive && !others.contains($0.id) }) {
                return (app, live.id)
            }
            usleep(10_000)
        }
        throw DaemonError("the fresh counter did not connect")
    }

    @Test("a saved session replayed into a fresh app leaves it in the recorded final state")
    func replaySavedSessionIntoAFreshApp() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let (saved, states) = try savedSession(["add 4", "increment", "add 10", "decrement"], gap: nil, in: harness)
        let (app, fresh) = try freshCounter(in: harness, besides: [saved])
        defer { app.closeInput() }

        let run = try ChildProcess(Executables.path("rewind"),
                                   ["replay", saved.rawValue, "--into", fresh.rawValue, "--port", "\(harness.port)"])
        #expect(run.waitForExit(timeout: 30) == 0)
        #expect(run.stdoutLines == ["replayed 4 actions of \(saved.rawValue) into \(fresh.rawValue)"])
        #expect(app.waitForLine(timeout: 5) { $0 == self.line(states[3]) } != nil)
        #expect(states[3] == counts(["add 4", "increment", "add 10", "decrement"], from: 0)[3])
        // The replay's row in the receiving session states which recorded events it replayed, and from where.
        let reader = try harness.daemon.store.openSession(fresh)
        var found: RecordedEvent?
        let deadline = Date().addingTimeInterval(TestTime.seconds(10))
        while found == nil, Date() < deadline {
            try reader.refresh()
            found = try reader.events(1...max(1, reader.eventCount)).first { $0.kind == .replay }
            if found == nil { usleep(20_000) }
        }
        let replayRow = try #require(found, "the replay is recorded in the receiving session")
        #expect(replayRow.meaning.replayed == ReplayedRange(session: saved.rawValue, from: 1, to: 4))
    }

    @Test("a Redux DevTools export replays only as SESSION-FORMAT.md says: Redux actions a Swift app cannot decode; no start without preloadedState")
    func replayOfAnExtensionExport() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-tt-redux-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let actions: JSONValue = [["type": "counter/increment"]]
        func imported(_ export: JSONValue, _ name: String) throws -> SessionID {
            let file = directory.appendingPathComponent(name)
            try export.serialized().write(to: file, atomically: true, encoding: .utf8)
            return try SessionImporter(store: harness.daemon.store).importSession(from: file).id
        }
        let withState = try imported(["payload": .string(actions.serialized()), "preloadedState": #"{"count":0}"#],
                                     "with-state.json")
        let withoutState = try imported(["payload": .string(actions.serialized())], "without-state.json")
        let (app, fresh) = try freshCounter(in: harness, besides: [withState, withoutState])
        defer { app.closeInput() }
        func replay(_ saved: SessionID) throws -> (Int32?, String) {
            let run = try ChildProcess(Executables.path("rewind"),
                                       ["replay", saved.rawValue, "--into", fresh.rawValue, "--port", "\(harness.port)"])
            let status = run.waitForExit(timeout: 30)
            return (status, run.stderrLines.joined(separator: "\n"))
        }
        let (status, err) = try replay(withState)
        #expect(status != 0)
        #expect(err.contains("cannot decode actions[0]"), "\(err)")
        let (refused, reason) = try replay(withoutState)
        #expect(refused != 0)
        #expect(reason.contains("the state after event 0 is unknown"), "\(reason)")
    }

    @Test("--speed 10 replays one action at a time at a tenth of the recorded gaps")
    func pacedReplay() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        // Four actions recorded 2 s apart: 6 s from the first to the last, 0.6 s at ten times the pace.
        let (saved, states) = try savedSession(["add 1", "add 2", "add 3", "add 4"], gap: 2, in: harness)
        let (app, fresh) = try freshCounter(in: harness, besides: [saved])
        defer { app.closeInput() }

        let started = Date()
        let run = try ChildProcess(Executables.path("rewind"), ["replay", saved.rawValue, "--into", fresh.rawValue,
                                                                "--speed", "10", "--port", "\(harness.port)"])
        #expect(run.waitForExit(timeout: 30) == 0)
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed >= 0.55, "took \(elapsed) s")
        #expect(elapsed < TestTime.seconds(5), "took \(elapsed) s, nearly the recorded 6 s")
        #expect(run.stdoutLines.last == "replayed 4 actions of \(saved.rawValue) into \(fresh.rawValue)")
        // Each action reached the app on its own: every intermediate state was shown.
        for state in states {
            #expect(app.waitForLine(timeout: 5) { $0 == self.line(state) } != nil)
        }
    }

    @Test("recordedActions answers a page at a time, and a paced replay asks for the next page until the range ends")
    func pagedRecordedActions() throws {
        let harness = try DaemonHarness { $0.recordedActionsPage = 2 }
        defer { harness.tearDown() }
        let (saved, states) = try savedSession(["add 1", "add 2", "add 3", "add 4", "add 5"], gap: 0.01, in: harness)
        let daemon = harness.daemon
        let first = try daemon.waitForOutcome(timeout: TestTime.seconds(10)) { daemon.recordedActions(session: saved, completion: $0) }.get()
        #expect(first.actions.map(\.index) == [1, 2])
        #expect(first.state == ["count": 0])
        #expect(first.next == 3)
        let second = try daemon.waitForOutcome(timeout: TestTime.seconds(10)) {
            daemon.recordedActions(session: saved, from: 3, withState: false, completion: $0)
        }.get()
        #expect(second.actions.map(\.index) == [3, 4])
        #expect(second.state == Optional<JSONValue>.none, "a later page comes without the state")
        #expect(second.next == 5)
        let last = try daemon.waitForOutcome(timeout: TestTime.seconds(10)) {
            daemon.recordedActions(session: saved, from: 5, withState: false, completion: $0)
        }.get()
        #expect(last.actions.map(\.index) == [5])
        #expect(last.next == nil)

        let (app, fresh) = try freshCounter(in: harness, besides: [saved])
        defer { app.closeInput() }
        let run = try ChildProcess(Executables.path("rewind"), ["replay", saved.rawValue, "--into", fresh.rawValue,
                                                                "--speed", "100", "--port", "\(harness.port)"])
        #expect(run.waitForExit(timeout: 30) == 0)
        #expect(run.stdoutLines.last == "replayed 5 actions of \(saved.rawValue) into \(fresh.rawValue)")
        for state in states {
            #expect(app.waitForLine(timeout: 5) { $0 == self.line(state) } != nil)
        }
    }

    @Test("recordedActions of large actions answers within its byte bound a page at a time, and the pages hold every action once")
    func recordedActionsByteBound() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        // 300 actions of 16 kB each: 4.7 MB of actions, far under the 10,000 actions of a page, over its 1 MiB.
        let recording = try harness.daemon.store.createSession(appName: "big", protocolVersion: 2, initialState: ["n": 0])
        let payload = String(repeating: "x", count: 16_000)
        for index in 1...300 {
            recording.append(NewEvent(appSeq: Int64(index), time: Double(index), label: "big",
                                      action: ["big": .string(payload), "n": .int(Int64(index))],
                                      patch: JSONPatch([.replace(path: JSONPointer(tokens: ["n"]), value: .int(Int64(index)))])),
                             stateAfter: ["n": .int(Int64(index))])
        }
        recording.finish(endState: .clean)
        let daemon = harness.daemon
        var from: Int64? = 1
        var seen: [Int64] = []
        var pages = 0
        while let start = from {
            let page = try daemon.waitForOutcome(timeout: TestTime.seconds(10)) {
                daemon.recordedActions(session: recording.id, from: start, withState: false, completion: $0)
            }.get()
            let bytes = page.actions.reduce(0) { $0 + $1.action.compactSize() }
            #expect(bytes <= RecordedActions.pageBytes + 17_000, "page \(pages): \(bytes) bytes")
            seen += page.actions.map(\.index)
            pages += 1
            from = page.next
        }
        #expect(seen == Array(1...300).map(Int64.init))
        #expect(pages >= 5, "4.7 MB in pages of about 1 MiB")
    }

    @Test("Ctrl-C stops a paced replay between two actions and says how many were replayed")
    func interruptedReplay() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let (saved, states) = try savedSession(["add 1", "add 20", "add 300"], gap: 30, in: harness)
        let (app, fresh) = try freshCounter(in: harness, besides: [saved])
        defer { app.closeInput() }

        let run = try ChildProcess(Executables.path("rewind"), ["replay", saved.rawValue, "--into", fresh.rawValue,
                                                                "--speed", "1", "--port", "\(harness.port)"])
        #expect(app.waitForLine(timeout: 10) { $0 == self.line(states[0]) } != nil)
        usleep(TestTime.microseconds(200_000))  // into the 30 s wait before the second action
        run.signal(SIGINT)
        #expect(run.waitForExit(timeout: 10) == 130)
        #expect(run.stdoutLines.last == "stopped after 1 of 3 actions of \(saved.rawValue) replayed into \(fresh.rawValue)")
        #expect(!app.stdoutLines.contains(line(states[1])))
    }

    @Test("--step replays one action per line on standard input and stops at its end")
    func steppedReplay() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let (saved, states) = try savedSession(["add 1", "add 20", "add 300", "add 4000"], gap: nil, in: harness)
        let (app, fresh) = try freshCounter(in: harness, besides: [saved])
        defer { app.closeInput() }

        let run = try ChildProcess(Executables.path("rewind"), ["replay", saved.rawValue, "--into", fresh.rawValue,
                                                                "--step", "--port", "\(harness.port)"])
        #expect(run.waitForLine(timeout: 10) { $0.hasPrefix("event 1 add:") } != nil)
        run.write("\n")
        #expect(app.waitForLine(timeout: 5) { $0 == self.line(states[0]) } != nil)
        #expect(run.waitForLine(timeout: 10) { $0.hasPrefix("event 2 add:") } != nil)
        #expect(!app.stdoutLines.contains(line(states[1])), "the second action waited for Enter")
        run.write("\n")
        #expect(run.waitForLine(timeout: 10) { $0.hasPrefix("event 3 add:") } != nil)
        run.closeInput()
        #expect(run.waitForExit(timeout: 30) == 0)
        #expect(run.stdoutLines.last == "stopped after 2 of 4 actions of \(saved.rawValue) replayed into \(fresh.rawValue)")
        #expect(app.waitForLine(timeout: 5) { $0 == self.line(states[1]) } != nil)
        #expect(!app.stdoutLines.contains(line(states[2])))
    }

    @Test("Ctrl-C while --step waits for Enter stops at once and says how many actions were replayed")
    func interruptedStep() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let (saved, states) = try savedSession(["add 1", "add 20"], gap: nil, in: harness)
        let (app, fresh) = try freshCounter(in: harness, besides: [saved])
        defer { app.closeInput() }

        let run = try ChildProcess(Executables.path("rewind"), ["replay", saved.rawValue, "--into", fresh.rawValue,
                                                                "--step", "--port", "\(harness.port)"])
        #expect(run.waitForLine(timeout: 10) { $0.hasPrefix("event 1 add:") } != nil)
        run.write("\n")
        #expect(run.waitForLine(timeout: 10) { $0.hasPrefix("event 2 add:") } != nil)
        run.signal(SIGINT)
        #expect(run.waitForExit(timeout: 10) == 130)
        // The same words whether Ctrl-C found it waiting for Enter or a moment before (it once said less then).
        #expect(run.stdoutLines.last == "stopped after 1 of 2 actions of \(saved.rawValue) replayed into \(fresh.rawValue)")
        #expect(app.waitForLine(timeout: 5) { $0 == self.line(states[0]) } != nil)
        #expect(!app.stdoutLines.contains(line(states[1])))
    }
}
