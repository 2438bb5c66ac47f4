import Foundation
import RewindWire
import Testing
@testable import RewindDaemon
@testable import RewindSessionFile

@Suite("State history: which events changed a value")
struct StateHistoryTests {
    /// The pointers the synthetic app's states have (and some that come and go).
    static let pointers = ["", "/todos", "/todos/0", "/todos/3", "/todos/3/done", "/todos/7/title", "/counter",
                           "/filter", "/user", "/user/name", "/user/visits", "/nosuch"]

    /// The events after which the value at `pointer` differs from the one before, or (under `/todos/K/`) the
    /// todo at position K is another one (an insertion or removal before it shifted the list), newest first.
    static func changes(of pointer: String, in states: [JSONValue], range: ClosedRange<Int>) throws -> [Int64] {
        let p = try JSONPointer(pointer)
        var element: JSONPointer?
        if p.tokens.count > 2, p.tokens[0] == "todos" { element = JSONPointer(tokens: Array(p.tokens.prefix(2)) + ["id"]) }
        return range.reversed().filter { index in
            if states[index][p] != states[index - 1][p] { return true }
            guard let element else { return false }
            return states[index][element] != states[index - 1][element]
        }.map(Int64.init)
    }

    /// Records 400 synthetic actions, a snapshot that replaces the state, an error (no patch), 100 more actions.
    static func record(into store: SessionStore) throws -> (SessionID, [JSONValue]) {
        var app = SyntheticApp()
        let recording = try store.createSession(
            appName: "todo", instance: nil, protocolVersion: 1, stateType: nil, initialState: app.state,
            startedAt: Date(timeIntervalSince1970: 1_800_000_000))
        var random = SeededGenerator(seed: 22)
        var states = recordSynthetic(400, into: recording, app: &app, random: &random)
        app.state = ["todos": [["id": 900, "title": "from the snapshot", "done": true]], "counter": 7,
                     "filter": "all", "user": ["name": "ada", "visits": 0]]
        recording.append(NewEvent(time: 1_800_000_100, kind: .snapshot, detail: "after reconnect"), stateAfter: app.state)
        states.append(app.state)
        recording.append(NewEvent(time: 1_800_000_101, kind: .error, detail: "bad frame"), stateAfter: app.state)
        states.append(app.state)
        states += recordSynthetic(100, into: recording, app: &app, random: &random).dropFirst()
        recording.finish(endState: .clean)
        return (recording.id, states)
    }

    @Test("with the path index, every pointer's history is exactly the events that changed its value, newest first")
    func indexedHistoryIsExact() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let (id, states) = try Self.record(into: store)
        let reader = try store.openSession(id)
        #expect(reader.metadata.eventCount == 502)
        for pointer in Self.pointers {
            let history = try reader.history(of: try JSONPointer(pointer))
            let want = try Self.changes(of: pointer, in: states, range: 1...502)
            #expect(history.map(\.index) == want,
                    "history of \"\(pointer)\": extra \(Set(history.map(\.index)).subtracting(want).sorted()) missing \(Set(want).subtracting(history.map(\.index)).sorted())")
            let upTo300 = try reader.history(of: try JSONPointer(pointer), through: 300, limit: 5)
            #expect(upTo300.map(\.index) == Array((try Self.changes(of: pointer, in: states, range: 1...300)).prefix(5)),
                    "history of \"\(pointer)\" through 300, newest 5")
        }
        let snapshot = try reader.history(of: try JSONPointer("/counter")).first { $0.index == 401 }
        #expect(snapshot?.cause == .replacedState)
    }

    @Test("a file written without the path index gives the same answers by scanning its patches")
    func scanWithoutIndexMatchesIndex() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let (id, states) = try Self.record(into: store)
        let database = try SQLiteDatabase(path: directory.url.appendingPathComponent("\(id).rewind").path, mode: .readWrite)
        try database.execute("""
            DROP TABLE index_paths; DROP TABLE path_changes; DROP TABLE array_reshapes;
            DELETE FROM meta WHERE key IN ('paths_indexed_from', 'paths_indexed_through');
            """)
        database.close()
        let reader = try store.openSession(id)
        for pointer in Self.pointers {
            let history = try reader.history(of: try JSONPointer(pointer))
            #expect(history.map(\.index) == (try Self.changes(of: pointer, in: states, range: 1...502)),
                    "scanned history of \"\(pointer)\"")
        }
    }

    @Test("a file written before the index, resumed, gets the index from its next event on; history spans both")
    func resumedOldFile() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let (id, states) = try Self.record(into: store)
        let path = directory.url.appendingPathComponent("\(id).rewind").path
        let database = try SQLiteDatabase(path: path, mode: .readWrite)
        try database.execute("""
            DROP TABLE index_paths; DROP TABLE path_changes; DROP TABLE array_reshapes;
            DELETE FROM meta WHERE key IN ('paths_indexed_from', 'paths_indexed_through');
            """)
        database.close()
        var app = SyntheticApp()
        app.state = states[502]
        let resumed = try store.resumeSession(id)
        var random = SeededGenerator(seed: 99)
        let more = recordSynthetic(50, into: resumed, app: &app, random: &random)
        resumed.finish(endState: .clean)
        let all = states + more.dropFirst()
        let reader = try store.openSession(id)
        let meta = try SQLiteDatabase(path: path, mode: .readOnly)
        #expect(try meta.scalarInt64("SELECT value FROM meta WHERE key = 'paths_indexed_from'") == 503)
        #expect(try meta.scalarInt64("SELECT count(DISTINCT idx) FROM path_changes") ?? 0 > 0)
        #expect(try meta.scalarInt64("SELECT min(idx) FROM path_changes") ?? 0 >= 503)
        meta.close()
        for pointer in Self.pointers {
            #expect(try reader.history(of: try JSONPointer(pointer)).map(\.index)
                    == (try Self.changes(of: pointer, in: all, range: 1...552)), "history of \"\(pointer)\"")
        }
    }

    @Test("a branch's history is its own events after the main line's up to the state it was recomputed from")
    func branchLineage() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        var app = SyntheticApp()
        let recording = try store.createSession(
            appName: "todo", instance: nil, protocolVersion: 1, stateType: nil, initialState: app.state,
            startedAt: Date(timeIntervalSince1970: 1_800_000_000))
        var random = SeededGenerator(seed: 7)
        let main = recordSynthetic(60, into: recording, app: &app, random: &random)
        // Branch 1 recomputes from the state after event 30: its counter goes its own way. Its row states where it
        // starts (`branchFrom`); its display text is for people and says it in other words (nothing parses it).
        var branchState = main[30]
        recording.append(NewEvent(time: 1_800_000_200, kind: .note, label: "recomputed",
                                  detail: "event 31 skipped: branch 1 recomputes what followed it", branch: 1,
                                  meaning: RowMeaning(branchFrom: 30)), stateAfter: branchState)  // event 61
        var expected: [Int64] = []
        for n in 0..<5 {
            let before = branchState
            if case .object(var root) = branchState {
                root.updateValue(.int(Int64(1000 + n)), forKey: "counter")
                branchState = .object(root)
            }
            let index = recording.append(NewEvent(time: 1_800_000_201, kind: .action, label: "counter/increment",
                                                  patch: JSONPatch.diff(from: before, to: branchState), branch: 1),
                                         stateAfter: branchState)
            expected.insert(index, at: 0)
        }
        recording.finish(endState: .clean)
        let reader = try store.openSession(recording.id)
        let history = try reader.history(of: try JSONPointer("/counter"), branch: 1)
        let mainBefore = try Self.changes(of: "/counter", in: main, range: 1...30)
        #expect(history.map(\.index) == expected + mainBefore)
        #expect(history.prefix(5).allSatisfy { $0.branch == 1 })
        #expect(history.dropFirst(5).allSatisfy { $0.branch == 0 })
        // The main line's own history is unaffected by the branch.
        #expect(try reader.history(of: try JSONPointer("/counter")).map(\.index)
                == (try Self.changes(of: "/counter", in: main, range: 1...60)))
    }
}
