import Foundation
import RewindSessionFile
import RewindWire
import Testing

/// The commands that read saved sessions — `sessions`, `state`, `diff`, `history`, `export`, `import` — run in
/// process on a session file written the way the daemon writes one.
@Suite("rewind commands on saved sessions")
struct SessionCommandTests {
    /// A data directory holding one ended session of the counter sample: `increment` (count 1), then `add 4`
    /// (count 5).
    final class CounterSession {
        let scratch = Scratch()
        let id: SessionID
        var data: String { scratch.directory.path }

        init() throws {
            let store = try SessionStore(directory: scratch.directory)
            let recording = try store.createSession(appName: "counter", protocolVersion: 2, stateType: "CounterState",
                                                    initialState: ["count": 0],
                                                    startedAt: Date(timeIntervalSince1970: 1_800_000_000))
            let steps: [(String, JSONValue, Int64)] = [("increment", "increment", 1), ("add", ["add": ["_0": 4]], 5)]
            var count: Int64 = 0
            for (n, (label, action, after)) in steps.enumerated() {
                let patch = JSONPatch.diff(from: ["count": .int(count)], to: ["count": .int(after)])
                recording.append(NewEvent(appSeq: Int64(n + 1), time: 1_800_000_000 + Double(n + 1), label: label,
                                          action: action, patch: patch, reducerMicros: 3),
                                 stateAfter: ["count": .int(after)])
                count = after
            }
            recording.finish(endState: .clean)
            id = recording.id
        }
    }

    @Test("sessions lists the session as JSON and as a table")
    func sessionsListing() throws {
        let session = try CounterSession()
        let listing = CommandRun(["sessions", "--json", "--data", session.data])
        #expect(listing.status == 0)
        let row = try JSONValue(parsing: try #require(listing.out.first))
        #expect(row[try JSONPointer("/id")] == .string(session.id.rawValue))
        #expect(row[try JSONPointer("/events")] == 2)
        #expect(row[try JSONPointer("/app")] == "counter")

        let table = CommandRun(["sessions", "--data", session.data])
        #expect(table.out.first?.hasPrefix("ID") == true, "\(table.out)")
        #expect(table.out.count == 2 && table.out[1].hasPrefix(session.id.rawValue), "\(table.out)")
    }

    @Test("export in both formats, then import, gives back the session's last state")
    func exportThenImport() throws {
        let session = try CounterSession()
        for format in ["jsonl", "redux-devtools"] {
            let file = session.scratch.path("export.\(format)")
            let exported = CommandRun(["export", session.id.rawValue, "--format", format, "-o", file,
                                       "--data", session.data])
            #expect(exported.status == 0, "\(exported.err)")
            let imported = CommandRun(["import", file, "--data", session.data])
            #expect(imported.status == 0, "\(imported.err)")
            let newID = try #require(imported.out.first?.split(separator: " ").last.map(String.init))
            let state = CommandRun(["state", newID, "2", "--json", "--data", session.data])
            #expect(state.out == [#"{"count":5}"#], "\(format): \(state.err)")
        }
    }

    @Test("an unknown session is one error line naming it")
    func unknownSession() throws {
        let session = try CounterSession()
        let run = CommandRun(["export", "no-such-session", "--data", session.data])
        #expect(run.status == 1)
        #expect(run.err.count == 1 && run.err[0].hasPrefix("Error:") && run.err[0].contains("no-such-session"),
                "\(run.err)")
    }

    @Test("state prints the state after an event, whole or at a pointer")
    func state() throws {
        let session = try CounterSession()
        #expect(CommandRun(["state", session.id.rawValue, "1", "--json", "--data", session.data]).out
                == [#"{"count":1}"#])
        #expect(CommandRun(["state", session.id.rawValue, "0", "--pointer", "/count", "--json",
                            "--data", session.data]).out == ["0"])
    }

    @Test("state of an event beyond the session names the session's range (issue 31)")
    func stateBeyondTheSession() throws {
        let session = try CounterSession()
        let run = CommandRun(["state", session.id.rawValue, "999999", "--data", session.data])
        #expect(run.status == 1)
        #expect(run.err == ["Error: session \(session.id.rawValue) has no event 999999 (it has 0–2; 0 is the initial "
                + "state)"])
    }

    @Test("diff of two events prints the patch between their states")
    func diffOfTwoEvents() throws {
        let session = try CounterSession()
        let run = CommandRun(["diff", session.id.rawValue, "0", "2", "--data", session.data])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.joined().contains("/count"), "\(run.out)")
    }

    @Test("history of a path lists the actions that changed it, newest first")
    func history() throws {
        let session = try CounterSession()
        let run = CommandRun(["history", session.id.rawValue, "/count", "--json", "--data", session.data])
        #expect(run.status == 0, "\(run.err)")
        let rows = try run.out.map { try JSONValue(parsing: $0) }
        #expect(try rows.map { $0[try JSONPointer("/index")] } == [2, 1], "\(run.out)")
        #expect(try rows.map { $0[try JSONPointer("/label")] } == ["add", "increment"], "\(run.out)")
        let table = CommandRun(["history", session.id.rawValue, "/count", "--data", session.data])
        #expect(table.out.count == 3 && table.out[1].contains("add"), "a header and two rows: \(table.out)")
    }

    @Test("stats counts each label's events, reducer time and patch bytes; the slowest and largest events follow")
    func stats() throws {
        let session = try CounterSession()
        let run = CommandRun(["stats", session.id.rawValue, "--json", "--data", session.data])
        #expect(run.status == 0, "\(run.err)")
        let answer = try JSONValue(parsing: try #require(run.out.first))
        #expect(answer["eventCount"] == 2 && answer["labelCount"] == 2)
        guard case .array(let labels)? = answer["labels"], case .array(let slowest)? = answer["slowestReducers"] else {
            Issue.record("labels and slowestReducers are arrays: \(answer.serialized())")
            return
        }
        #expect(labels.compactMap { $0["label"]?.stringValue } == ["add", "increment"], "ties in label order")
        #expect(labels.first?["count"] == 1 && labels.first?["reducerTotalMicros"] == 3.0
                && labels.first?["reducerP99Micros"] == 3.0 && labels.first?["firstEvent"] == 2)
        #expect(slowest.count == 2 && slowest.first?["reducerMicros"] == 3.0)

        let table = CommandRun(["stats", session.id.rawValue, "--data", session.data])
        #expect(table.status == 0)
        #expect(table.out.first == "\(session.id.rawValue): 2 events, 2 labels")
        #expect(table.out.contains { $0.hasPrefix("LABEL") && $0.contains("P99") }, "\(table.out)")
        #expect(table.out.contains("Slowest reducers:") && table.out.contains("Largest patches:"), "\(table.out)")
    }

    @Test("stats sorts by total reducer time, p99 or patch bytes; a wrong order names the valid ones")
    func statsOrders() throws {
        let scratch = Scratch()
        let store = try SessionStore(directory: scratch.directory)
        let recording = try store.createSession(appName: "costly", protocolVersion: 2, initialState: ["n": 0])
        // "cheap" is frequent and fast, "slow" rare and slow, "big" has the largest patches.
        let rows: [(String, Double, Int)] = [("cheap", 1, 1), ("cheap", 1, 1), ("cheap", 2, 1), ("slow", 900, 1),
                                             ("big", 5, 400), ("cheap", 1, 1)]
        var state: JSONValue = ["n": 0]
        for (n, (label, micros, size)) in rows.enumerated() {
            let after: JSONValue = ["n": .int(Int64(n + 1)), "blob": .string(String(repeating: "x", count: size))]
            recording.append(NewEvent(appSeq: Int64(n + 1), label: label, action: .string(label),
                                      patch: JSONPatch.diff(from: state, to: after), reducerMicros: micros),
                             stateAfter: after)
            state = after
        }
        recording.finish(endState: .clean)
        func first(_ order: String) throws -> String? {
            let run = CommandRun(["stats", recording.id.rawValue, "--sort", order, "--json", "--data",
                                  scratch.directory.path])
            let answer = try JSONValue(parsing: try #require(run.out.first))
            guard case .array(let labels)? = answer["labels"] else { return nil }
            return labels.first?["label"]?.stringValue
        }
        #expect(try first("count") == "cheap")
        #expect(try first("total") == "slow")
        #expect(try first("p99") == "slow")
        #expect(try first("patch") == "big")
        let wrong = CommandRun(["stats", recording.id.rawValue, "--sort", "speed", "--data", scratch.directory.path])
        #expect(wrong.status == 64)
        #expect(wrong.err.first == "Error: --sort must be one of count, total, p99, patch, not 'speed'")
    }
}
