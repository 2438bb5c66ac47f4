import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTestSupport
import RewindWire
import Testing

/// The states of branch rows and of skips across jumps, against the real daemon and the real sample apps
/// (issue 18, defects 1 and 3): a recomputed row's state is its branch's, wherever it is read or pushed, and a
/// skip's recomputation restarts where the recording put a state in place.
@Suite("Branch states end to end", .serialized)
struct BranchStateTests {
    private func script(_ lines: [String]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-bs-\(UUID()).txt").path
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Types `command` into the interactive counter and waits for it to print `count`.
    private func type(_ command: String, into app: ChildProcess, expecting count: Int,
                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = app.stdoutLines.count
        app.write(command + "\n")
        try #require(app.waitForLine(timeout: 5, after: before) { $0 == #"{"count":\#(count)}"# } != nil,
                     "\(command) → \(count)", sourceLocation: sourceLocation)
    }

    /// The events of `branch`, read back after a flush.
    private func events(of branch: Int64, _ session: LiveSession, in daemon: Daemon) throws -> [RecordedEvent] {
        session.flush()
        let reader = try daemon.store.openSession(session.id)
        return try reader.eventsOnAllBranches(1...reader.eventCount).filter { $0.branch == branch }
    }

    @Test("rewind jump to a recomputed row pushes its branch's state, and SessionReader seeks to it")
    func jumpToARecomputedRow() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let app = try ChildProcess(Executables.path("counter"), [], environment: ["REWIND_URL": harness.url])
        defer { app.closeInput() }
        for (command, count) in [("add 1", 1), ("add 2", 3), ("add 3", 6), ("increment", 7), ("add 10", 17)] {
            try type(command, into: app, expecting: count)
        }
        let session = try #require(harness.waitForSession(events: 5, app: "counter"))
        let daemon = harness.daemon
        let outcome = try daemon.waitForOutcome(timeout: TestTime.seconds(30)) { daemon.skip(session: session.id, index: 2, completion: $0) }.get()
        #expect(outcome.states == [["count": 4], ["count": 5], ["count": 15]])

        let branch = try events(of: 1, session, in: daemon)
        let increment = try #require(branch.first { $0.detail == "recomputes event 4" })
        let reader = try daemon.store.openSession(session.id)
        // The main line holds 17 at this index (or 15, once the app's `replay` snapshot is recorded before the
        // branch); the row stands for the branch's 5.
        #expect([["count": 17], ["count": 15]].contains(try reader.state(at: increment.index, branch: 0)))
        #expect(try reader.state(at: increment.index) == ["count": 5])
        #expect(try reader.recordedState(after: increment.index) == .known(["count": 5]))

        let before = app.stdoutLines.count
        _ = try daemon.waitFor { daemon.jump(session: session.id, to: increment.index, completion: $0) }.get()
        #expect(app.waitForLine(timeout: 5, after: before) { $0 == #"{"count":5}"# } != nil,
                "the app got \(app.stdoutLines.dropFirst(before))")

        // The same through the command line, to the row recomputing event 3 (branch 4; main line 17 or 15).
        let first = try #require(branch.first { $0.detail == "recomputes event 3" })
        let cliBefore = app.stdoutLines.count
        let jump = try ChildProcess(Executables.path("rewind"),
                                    ["jump", session.id.rawValue, "\(first.index)", "--port", "\(harness.port)"])
        #expect(jump.waitForExit(timeout: 30) == 0, "\(jump.stderrLines)")
        #expect(app.waitForLine(timeout: 5, after: cliBefore) { $0 == #"{"count":4}"# } != nil,
                "the app got \(app.stdoutLines.dropFirst(cliBefore))")
    }

    @Test("todo: a row recomputed after skipping the third 'added' holds the branch's two todos everywhere")
    func todoSkipOfTheThirdAdded() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-bs-\(UUID()).json").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let commands = ["add Buy milk", "add Walk the dog", "add Call mum", "toggle 1", "search milk", "clear-search",
                        "save", "remove 2", "load"]
        let app = try ChildProcess(Executables.path("todo"), ["--file", file, "--script", try script(commands), "--stay"],
                                   environment: ["REWIND_URL": harness.url])
        defer { app.closeInput() }
        #expect(app.waitForLine(timeout: 10) { $0.contains("loaded 3 items") } != nil, "\(app.stderrLines)")
        let session = try #require(harness.waitForSession(events: 18, app: "todo"))
        let daemon = harness.daemon
        session.flush()
        let labels = try daemon.store.openSession(session.id).events(1...18).map(\.label)
        let thirdAdded = try #require(labels.indices.filter { labels[$0] == "added" }.dropFirst(2).first) + 1

        _ = try daemon.waitForOutcome(timeout: TestTime.seconds(30)) {
            daemon.skip(session: session.id, index: Int64(thirdAdded), completion: $0)
        }.get()
        let branch = try events(of: 1, session, in: daemon)
        let toggle = try #require(branch.first { $0.label == "toggle" })
        let reader = try daemon.store.openSession(session.id)
        let todos = try JSONPointer("/todos")
        #expect(try reader.state(at: toggle.index, branch: 0)[todos]?.arrayValue?.count == 3)
        #expect(try reader.state(at: toggle.index)[todos]?.arrayValue?.count == 2)
        #expect(try reader.recordedState(after: toggle.index).value?[todos]?.arrayValue?.count == 2)

        // The JSON Lines export, rebuilt per branch as SESSION-FORMAT.md says, holds the same state.
        let export = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-bs-\(UUID()).jsonl")
        defer { try? FileManager.default.removeItem(at: export) }
        try SessionExporter(reader: reader).export(format: .jsonl, to: export)
        let exported = try ExportedStates(jsonl: export)
        #expect(exported.states[toggle.index]?[todos]?.arrayValue?.count == 2)

        let before = app.stdoutLines.count
        _ = try daemon.waitFor { daemon.jump(session: session.id, to: toggle.index, completion: $0) }.get()
        let pushed = try #require(app.waitForLine(timeout: 5, after: before) { _ in true })
        #expect(try JSONValue(parsing: pushed)[todos]?.arrayValue?.count == 2, "\(pushed)")
    }

    @Test("skip recomputes segment by segment: the states jumps put in place stay (counter, issue 18 #3)")
    func skipKeepsTheResetsOfJumps() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let app = try ChildProcess(Executables.path("counter"), [], environment: ["REWIND_URL": harness.url])
        defer { app.closeInput() }
        // + + + add 5 - reset add 40 +  →  1 2 3 8 7 0 40 41
        for (command, count) in [("+", 1), ("+", 2), ("+", 3), ("add 5", 8), ("-", 7), ("reset", 0), ("add 40", 40),
                                 ("+", 41)] {
            try type(command, into: app, expecting: count)
        }
        let session = try #require(harness.waitForSession(events: 8, app: "counter"))
        let daemon = harness.daemon
        // Jump to event 3, to 3 again, then to the initial state; dispatch more from there.
        for (target, count) in [(Int64(3), 3), (3, 3), (0, 0)] {
            let before = app.stdoutLines.count
            _ = try daemon.waitFor { daemon.jump(session: session.id, to: target, completion: $0) }.get()
            try #require(app.waitForLine(timeout: 5, after: before) { $0 == #"{"count":\#(count)}"# } != nil)
        }
        try type("add 12", into: app, expecting: 12)
        try type("+", into: app, expecting: 13)
        #expect(harness.waitForSession(events: 8 + 3 + 2) != nil)

        let before = app.stdoutLines.count
        let outcome = try daemon.waitForOutcome(timeout: TestTime.seconds(30)) { daemon.skip(session: session.id, index: 4, completion: $0) }.get()
        // From 3 without add 5: - reset add 40 +  → 2 0 40 41; then the jump to 0 put 0 in place: add 12 + → 12 13.
        #expect(outcome.states == [2, 0, 40, 41, 12, 13].map { ["count": .int(Int64($0))] })
        #expect(outcome.finalState == ["count": 13])
        #expect(app.waitForLine(timeout: 5, after: before) { $0 == #"{"count":13}"# } != nil)

        let branch = try events(of: 1, session, in: daemon)
        let lastJump = try #require(try events(of: 0, session, in: daemon).last { $0.kind == .jump })
        let reader = try daemon.store.openSession(session.id)
        #expect(try reader.state(at: try #require(branch.last).index) == ["count": 13])
        // The branch says where it restarted: one `jump` row standing for the main line's last jump.
        let resets = branch.filter { $0.kind == .jump }
        #expect(resets.count == 1)
        #expect(try resets.first.map { try reader.state(at: $0.index) } == ["count": 0])
        #expect(resets.first?.detail?.hasPrefix("recomputes event \(lastJump.index):") == true, "\(resets)")
    }
}

/// The states of a JSON Lines export, rebuilt as docs/SESSION-FORMAT.md tells a reader to: one current state per
/// branch; the state after a line is its `state` if present, else the branch's state with its `patch` applied.
/// Lines marked `"stateUnknown": true` are collected apart.
struct ExportedStates {
    /// The state after each event, by index (the rebuilt one, also for lines marked unknown).
    var states: [Int64: JSONValue] = [:]
    /// The indices of the lines marked `"stateUnknown": true`.
    var unknown: Set<Int64> = []

    init(jsonl url: URL) throws {
        let text = try String(contentsOf: url, encoding: .utf8)
        let lines = text.split(separator: "\n")
        let header = try JSONValue(parsing: String(try #require(lines.first)))
        var current: [Int64: JSONValue] = [0: try #require(header["initialState"])]
        for line in lines.dropFirst() {
            let value = try JSONValue(parsing: String(line))
            let index = try #require(value["index"]?.int64Value)
            let branch = value["branch"]?.int64Value ?? 0
            var state: JSONValue
            if let full = value["state"] {
                state = full
            } else {
                state = try #require(current[branch], "line \(index) of branch \(branch) has no state before it")
                if let patch = value["patch"] { state = try JSONPatch(json: patch).apply(to: state) }
            }
            current[branch] = state
            states[index] = state
            if value["stateUnknown"] == true { unknown.insert(index) }
        }
    }
}
