import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTestSupport
import RewindWire
import Testing

/// `rewind history`, `rewind state` and `rewind diff SESSION A B` on a session recorded through the store.
@Suite("rewind history, state and diff on a session")
struct HistoryCommandLineTests {
    /// A data directory holding one session: count 0 → 1, a todo added, count 2, a snapshot putting count 10.
    final class Recorded: @unchecked Sendable {
        // Immutable after init; the directory is removed in deinit.
        let directory: URL
        let id: SessionID

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-history-cli-\(UUID())")
            let store = try SessionStore(directory: directory)
            var state: JSONValue = ["count": 0, "todos": []]
            let recording = try store.createSession(appName: "counter", protocolVersion: 1, initialState: state)
            func action(_ label: String, _ change: (inout JSONValue) throws -> Void) throws {
                let before = state
                try change(&state)
                recording.append(NewEvent(kind: .action, label: label, action: ["type": .string(label)],
                                          patch: JSONPatch.diff(from: before, to: state)), stateAfter: state)
            }
            try action("increment") { try JSONPatch([.replace(path: JSONPointer("/count"), value: 1)]).apply(to: &$0) }
            try action("todo/add") {
                try JSONPatch([.add(path: JSONPointer("/todos/0"), value: ["title": "milk"])]).apply(to: &$0)
            }
            try action("increment") { try JSONPatch([.replace(path: JSONPointer("/count"), value: 2)]).apply(to: &$0) }
            state = ["count": 10, "todos": [["title": "milk"]]]
            recording.append(NewEvent(kind: .snapshot, detail: "after reconnect"), stateAfter: state)
            recording.finish(endState: .clean)
            id = recording.id
        }

        deinit {
            try? FileManager.default.removeItem(at: directory)
        }
    }

    private func rewind(_ arguments: [String], data: URL) throws -> (status: Int32?, out: [String], err: String) {
        let run = RewindRun.inProcess(arguments + ["--data", data.path])
        return (run.status, run.stdout, run.stderrText)
    }

    @Test("history and sessions write times and counts as the timeline does: +6:08.064, 1,200 (issue 31, item 9)")
    func oneConventionForTimesAndCounts() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-conv-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SessionStore(directory: directory)
        let start = 1_795_361_412.0
        let recording = try store.createSession(appName: "counter", protocolVersion: 1, initialState: ["count": 0],
                                                startedAt: Date(timeIntervalSince1970: start))
        for index in 1...1_200 {
            let time = index == 1_200 ? start + 368.064 : start + Double(index) / 100
            recording.append(NewEvent(appSeq: Int64(index), time: time, label: "increment", action: ["increment": [:]],
                                      patch: JSONPatch([.replace(path: JSONPointer(tokens: ["count"]),
                                                                 value: .int(Int64(index)))])),
                             stateAfter: ["count": .int(Int64(index))])
        }
        recording.finish(endState: .clean)
        let history = RewindRun.inProcess(["history", recording.id.rawValue, "/count", "--data", directory.path])
        #expect(history.status == 0, "\(history.stderr)")
        let newest = try #require(history.stdout.dropFirst().first)
        #expect(newest.hasPrefix("1,200") && newest.contains("+6:08.064"), "\(history.stdout.prefix(3))")
        let sessions = RewindRun.inProcess(["sessions", "--data", directory.path])
        #expect(sessions.status == 0)
        #expect(sessions.stdout.last?.contains(" 1,200 ") == true, "\(sessions.stdout)")
    }

    @Test("history lists the events that changed a value, newest first, as a table or JSON lines, by id prefix")
    func history() throws {
        let session = try Recorded()
        let table = try rewind(["history", session.id.rawValue, "/count"], data: session.directory)
        #expect(table.status == 0, "\(table.err)")
        #expect(table.out.first?.hasPrefix("EVENT") == true)
        let rows = table.out.dropFirst().map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        #expect(rows.map { $0.first.map(String.init) } == ["4", "3", "1"])
        #expect(table.out[1].contains("snapshot") && table.out[1].hasSuffix("state replaced"))
        #expect(table.out[2].contains("increment") && table.out[2].hasSuffix("patch"))

        let prefix = String(session.id.rawValue.dropLast(3))
        let json = try rewind(["history", prefix, "/todos/0/title", "--json"], data: session.directory)
        #expect(json.status == 0, "\(json.err)")
        let objects = try json.out.map { try JSONValue(parsing: $0) }
        #expect(objects.map { $0["index"] } == [2])
        #expect(objects.first?["label"] == "todo/add")
        #expect(objects.first?["cause"] == "patch")

        let upTo = try rewind(["history", session.id.rawValue, "/count", "--at", "2", "--json"], data: session.directory)
        #expect(try upTo.out.map { try JSONValue(parsing: $0)["index"] } == [1])

        let none = try rewind(["history", session.id.rawValue, "/nosuch"], data: session.directory)
        #expect(none.status == 0)
        #expect(none.out == ["no event changed /nosuch"])
    }

    @Test("state prints the state after an event, or the value at a pointer; errors name what is wrong")
    func state() throws {
        let session = try Recorded()
        let whole = try rewind(["state", session.id.rawValue, "2", "--json"], data: session.directory)
        #expect(whole.status == 0, "\(whole.err)")
        #expect(whole.out == [#"{"count":1,"todos":[{"title":"milk"}]}"#])
        let initial = try rewind(["state", session.id.rawValue, "0", "--pointer", "/count"], data: session.directory)
        #expect(initial.out == ["0"])
        let pretty = try rewind(["state", session.id.rawValue, "4", "--pointer", "/todos"], data: session.directory)
        #expect(pretty.out.count > 1)
        #expect(try JSONValue(parsing: pretty.out.joined(separator: "\n")) == [["title": "milk"]])

        let beyond = try rewind(["state", session.id.rawValue, "99"], data: session.directory)
        #expect(beyond.status == 1)
        // The valid range, as `jump` says it (issue 31: "there is no event 99 in this session").
        #expect(beyond.err.contains("session \(session.id) has no event 99 (it has 0–4"), "\(beyond.err)")
        let negative = try rewind(["state", session.id.rawValue, "-3"], data: session.directory)
        #expect(negative.status == 64)
        #expect(negative.err.contains("'-3' is not an event number: events are numbered from 0"), "\(negative.err)")
        #expect(!negative.err.contains("Missing expected argument"), "\(negative.err)")
        let missing = try rewind(["state", session.id.rawValue, "1", "--pointer", "/todos/0"], data: session.directory)
        #expect(missing.status == 1)
        #expect(missing.err.contains("the state after event 1 has no value at /todos/0"), "\(missing.err)")
        let badPointer = try rewind(["state", session.id.rawValue, "1", "--pointer", "count"], data: session.directory)
        #expect(badPointer.status == 1)
        #expect(badPointer.err.contains("'count' is not a JSON Pointer"), "\(badPointer.err)")
        let unknown = try rewind(["state", "nosuch", "1"], data: session.directory)
        #expect(unknown.status == 1)
        #expect(unknown.err.contains("nosuch"), "\(unknown.err)")
    }

    @Test("diff SESSION A B prints the patch between two events' states, as lines or JSON")
    func diffBetweenEvents() throws {
        let session = try Recorded()
        let lines = try rewind(["diff", session.id.rawValue, "1", "3"], data: session.directory)
        #expect(lines.status == 0, "\(lines.err)")
        #expect(Set(lines.out) == [#"replace /count 2"#, #"add /todos/0 {"title":"milk"}"#])
        let json = try rewind(["diff", session.id.rawValue, "0", "4", "--json"], data: session.directory)
        let patch = try JSONPatch(json: try JSONValue(parsing: try #require(json.out.first)))
        #expect(try patch.apply(to: ["count": 0, "todos": []]) == ["count": 10, "todos": [["title": "milk"]]])
        let equal = try rewind(["diff", session.id.rawValue, "1", "2", "--pointer", "/count"], data: session.directory)
        #expect(equal.out == ["the states after events 1 and 2 are equal at /count"])
        let beyond = try rewind(["diff", session.id.rawValue, "1", "99"], data: session.directory)
        #expect(beyond.status == 1)
        #expect(beyond.err.contains("has no event 99 (it has 0–4"), "\(beyond.err)")
        // B forgotten: not "cannot read '…': no such file" (issue 31).
        let one = try rewind(["diff", session.id.rawValue, "3"], data: session.directory)
        #expect(one.status == 64)
        #expect(one.err.contains("'3' is not a file: diff compares the states after two events (SESSION A B, e.g. "
                                 + "'rewind diff \(session.id) 2 3') or two JSON files (FROM TO)"), "\(one.err)")
        #expect(one.err.contains("Usage: rewind diff"), "\(one.err)")
        #expect(!one.err.contains("no such file"), "\(one.err)")
        let bad = try rewind(["diff", session.id.rawValue, "1", "x"], data: session.directory)
        #expect(bad.status != 0)
        #expect(bad.err.contains("'x' is not an event number"), "\(bad.err)")
    }

    @Test("history --branch N of a branch the session lacks says so and names the branches there are (issue 31)")
    func historyOfAMissingBranch() throws {
        let session = try Recorded()
        let run = try rewind(["history", session.id.rawValue, "/count", "--branch", "7"], data: session.directory)
        #expect(run.status == 1)
        #expect(run.err.contains("session \(session.id) has no branch 7: it has only the main line, branch 0"),
                "\(run.err)")
        #expect(!run.err.contains("no event"), "names the branch, not an event: \(run.err)")
        let main = try rewind(["history", session.id.rawValue, "/count", "--branch", "0"], data: session.directory)
        #expect(main.status == 0, "\(main.err)")
    }
}
