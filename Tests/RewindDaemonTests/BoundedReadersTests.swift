import Foundation
import RewindTestSupport
import RewindWire
import Testing
@testable import RewindDaemon
@testable import RewindSessionFile

/// Issue 29: the readers of a session file are bounded and never trap on its numbers — an event index near 2^63, a
/// branch at −2^63, a gap up to 2^62 in the numbering, a stored `copy` bomb. They refuse the file naming it (and the
/// row), or walk the rows that exist, or stop at the state limit naming the event.
@Suite("Hostile files: numbers and sizes the readers are handed")
struct BoundedReadersTests {
    /// The bound on a test that once ran for hours: a minute in a plain build (these tests take 0.25 s together).
    /// Under a sanitizer (`TestTime.scale` above 1, set by `make sanitize`) it is the run's own limit, 30 minutes: there
    /// the clock of a time limit also runs while the test waits for a thread of the two processors' pool, which
    /// other tests' waits can hold for more than a minute (seen: all three tests "exceeded" 60 s in one run).
    static let oneMinute = TimeLimitTrait.Duration.minutes(TestTime.scale > 1 ? 30 : 1)

    /// A finished session: events 1–3 on the main line (each sets `/n`), event 4 starting branch 1 (a `recomputed`
    /// note from the state after event 2) and event 5 on branch 1.
    private static func recordWithBranch(in store: SessionStore) throws -> SessionID {
        let recording = try store.createSession(appName: "numbers", protocolVersion: 1, initialState: ["n": 0])
        for n in 1...3 {
            recording.append(NewEvent(appSeq: Int64(n), time: Double(n), kind: .action, label: "set",
                                      patch: JSONPatch([.replace(path: JSONPointer(tokens: ["n"]), value: .int(Int64(n)))])),
                             stateAfter: ["n": .int(Int64(n))])
        }
        recording.append(NewEvent(time: 4, kind: .note, label: "recomputed",
                                  detail: "branch 1: the main line from the state after event 2, without event 3",
                                  branch: 1, meaning: RowMeaning(branchFrom: 2)), stateAfter: ["n": 2],
                         forceKeyframe: true)
        recording.append(NewEvent(time: 5, kind: .action, label: "set",
                                  patch: JSONPatch([.replace(path: JSONPointer(tokens: ["n"]), value: 9)]), branch: 1),
                         stateAfter: ["n": 9])
        recording.finish(endState: .clean)
        return recording.id
    }

    /// Runs `sql` on the session's file, as a hand-edited or damaged file would read.
    private static func damage(_ id: SessionID, in store: SessionStore, _ sql: String) throws {
        let database = try SQLiteDatabase(path: store.fileURL(for: id).path, mode: .readWrite)
        defer { database.close() }
        try database.execute(sql)
    }

    /// The number of events in the file and its `end_state`, read without the session reader.
    private static func rawContents(_ id: SessionID, in store: SessionStore) throws -> (events: Int64, endState: String?) {
        let database = try SQLiteDatabase(path: store.fileURL(for: id).path, mode: .readOnly)
        defer { database.close() }
        let count = try database.scalarInt64("SELECT count(*) FROM events") ?? -1
        let statement = try database.prepare("SELECT value FROM meta WHERE key = 'end_state'")
        defer { statement.reset() }
        return (count, try statement.step() ? statement.string(at: 0) : nil)
    }

    /// Event indices outside 1…2^62, and the row given that number: the last (on branch 1) for large ones, the
    /// first of branch 1 for small ones.
    static let outOfRangeIndices: [(Int64, Int64)] = [
        (Int64.max, 5), (Int64.max - 1, 5), ((1 << 62) + 1, 5), (0, 4), (-1, 4), (Int64.min, 4),
    ]

    @Test("a file whose events are numbered outside 1…2^62 is refused on opening, naming the file and the event",
          arguments: outOfRangeIndices)
    func indexOutOfRange(index: Int64, row: Int64) throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let id = try Self.recordWithBranch(in: store)
        try Self.damage(id, in: store, "UPDATE events SET idx = \(index) WHERE idx = \(row)")
        do {
            let reader = try store.openSession(id)
            Issue.record("opened, with \(reader.eventCount) events")
            return
        } catch {
            guard case .corrupt(let path, let detail) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(path == store.fileURL(for: id).path)
            #expect(detail.contains("event \(index) is numbered outside 1…4611686018427387904"), "\(detail)")
        }
        #expect(try store.listSessions().isEmpty)
        #expect(try Self.rawContents(id, in: store) == (5, "clean"))
    }

    /// Branch numbers outside 0…2^62.
    static let outOfRangeBranches: [Int64] = [Int64.min, -1, Int64.max, (1 << 62) + 1]

    @Test("a file with a branch outside 0…2^62 is refused on opening, naming the file, the event and the branch",
          arguments: outOfRangeBranches)
    func branchOutOfRange(branch: Int64) throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let id = try Self.recordWithBranch(in: store)
        try Self.damage(id, in: store, "UPDATE events SET branch = \(branch) WHERE idx = 5")
        do {
            let reader = try store.openSession(id)
            Issue.record("opened, with branches \(try reader.branches())")
            return
        } catch {
            guard case .corrupt(let path, let detail) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(path == store.fileURL(for: id).path)
            #expect(detail.contains("event 5 is on branch \(branch), outside 0…4611686018427387904"), "\(detail)")
        }
    }

    @Test("a row whose state is said to be made unknown by an event outside 1…2^62 is refused as damaged, naming the event",
          arguments: [Int64.min, -1, 0, Int64(1 << 62) + 1, Int64.max] as [Int64])
    func unknownCauseOutOfRange(cause: Int64) throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let id = try Self.recordWithBranch(in: store)
        try Self.damage(id, in: store, "UPDATE events SET unknown = 'dropped', unknown_cause = \(cause) WHERE idx = 3")
        let reader = try store.openSession(id)
        for read in [{ _ = try reader.unknownStates() }, { _ = try reader.events(3...3) }] as [() throws -> Void] {
            do {
                try read()
                Issue.record("read as if whole")
            } catch {
                guard case .corrupt(let path, let detail)? = error as? SessionStoreError else {
                    Issue.record("unexpected error \(error)")
                    continue
                }
                #expect(path == store.fileURL(for: id).path)
                #expect(detail.contains("event 3 says its state was made unknown by event \(cause)"), "\(detail)")
            }
        }
        let state = RewindRun.inProcess(["state", id.rawValue, "3", "--data", directory.url.path])
        #expect(state.status != 0)
        #expect(state.stderrText.contains("event 3 says its state was made unknown by event \(cause)"),
                "\(state.stderrText)")
    }

    @Test("history of a branch whose numbers are in range still follows its lineage")
    func historyOfAGoodBranch() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let id = try Self.recordWithBranch(in: store)
        let reader = try store.openSession(id)
        let history = try reader.history(of: try JSONPointer("/n"), branch: 1)
        #expect(history.map(\.index) == [5, 2, 1], "\(history)")
    }

    @Test("resuming a session whose last event is numbered 2^62 or more is refused, leaving the file as it was",
          arguments: [Int64.max - 1, 1 << 62])
    func resumeAtTheEndOfTheNumbering(last: Int64) throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let id = try Self.recordWithBranch(in: store)
        try Self.damage(id, in: store, "UPDATE events SET idx = \(last) WHERE idx = 5")
        do {
            let recording = try store.resumeSession(id)
            Issue.record("resumed after event \(recording.lastIndex)")
            recording.finish(endState: .clean)
            return
        } catch {
            guard case .corrupt(let path, let detail) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(path == store.fileURL(for: id).path)
            #expect(detail.contains("\(last)"), "\(detail)")
        }
        #expect(try Self.rawContents(id, in: store) == (5, "clean"))
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("\(id).lock").path))
    }

    @Test("exporting a session whose numbering jumps to 2^62 walks the rows that exist", .timeLimit(Self.oneMinute))
    func exportAcrossAGap() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let id = try Self.recordWithBranch(in: store)
        try Self.damage(id, in: store, "UPDATE events SET idx = \(1 << 62) WHERE idx = 3")
        let reader = try store.openSession(id)
        for format in [SessionExportFormat.jsonl, .reduxDevTools] {
            let file = directory.url.appendingPathComponent("out-\(format.rawValue)")
            let done = DispatchSemaphore(value: 0)
            let failure = ErrorBox()
            let thread = Thread {
                do { try SessionExporter(reader: reader).export(format: format, to: file) } catch { failure.set(error) }
                done.signal()
            }
            thread.start()
            guard done.wait(timeout: .now() + TestTime.seconds(20)) == .success else {
                Issue.record("\(format): the export still runs after \(TestTime.seconds(20)) s")
                return
            }
            #expect(failure.value == nil, "\(String(describing: failure.value))")
            let text = try String(contentsOf: file, encoding: .utf8)
            // Event 2^62 (formerly 3) is there: its index in JSON Lines, the state it made in Redux DevTools.
            #expect(text.contains(format == .jsonl ? "\"index\":4611686018427387904" : "{\"state\":{\"n\":3}}"),
                    "\(format): \(text)")
        }
    }

    @Test("searching states, the history of a location and a verify over a stored copy bomb stop at the bound",
          .timeLimit(Self.oneMinute))
    func otherReadersOfACopyBomb() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let id = try Self.recordCopyBomb(in: store)
        let reader = try store.openSession(id, maxStateBytes: 1 << 20)
        // A condition on the states (`/s:` in the timeline, `rewind find`): refused at event 1, naming it.
        do {
            try reader.makeSearch().forEachMainLineState(in: 0...1) { _, _ in true }
            Issue.record("the states after the bomb were searched")
        } catch {
            #expect("\(error)".contains("the state after event 1 is too large to rebuild"), "\(error)")
        }
        // The history of a location goes on without the tracked part it could not rebuild.
        _ = try reader.history(of: JSONPointer(tokens: ["c0", "filler"]))
        // A verify rebuilds the recorded states from the same patches.
        let verifier = SessionVerifier(reader: reader)
        do {
            _ = try verifier.verify(replay: { state, actions in Array(repeating: state, count: actions.count) })
            Issue.record("the bomb was verified")
        } catch {
            #expect("\(error)".contains("the state after event 1 is too large to rebuild"), "\(error)")
        }
    }

    /// A session whose event 1 is a stored `copy` bomb: 40 copies of the whole state into itself, from 1 kB.
    private static func recordCopyBomb(in store: SessionStore) throws -> SessionID {
        let recording = try store.createSession(appName: "bombed", protocolVersion: 1,
                                                initialState: ["filler": .string(String(repeating: "x", count: 1000))])
        let copies = (0..<40).map { JSONPatchOperation.copy(from: JSONPointer(tokens: []), path: JSONPointer(tokens: ["c\($0)"])) }
        recording.append(NewEvent(time: 2, kind: .action, label: "bomb", patch: JSONPatch(copies)), stateAfter: ["small": true])
        recording.finish(endState: .clean)
        return recording.id
    }

    @Test("the state after a stored copy bomb is refused at the reader's state limit, naming the event and the bound",
          .timeLimit(Self.oneMinute))
    func stateOfACopyBomb() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let id = try Self.recordCopyBomb(in: store)
        let reader = try store.openSession(id)
        #expect(reader.maxStateBytes == 64 << 20)
        for (bound, opened) in [(64 << 20, reader), (1 << 20, try store.openSession(id, maxStateBytes: 1 << 20))] {
            do {
                _ = try opened.recordedState(after: 1)
                Issue.record("the state after the bomb was rebuilt")
            } catch {
                guard case .corrupt(let path, let detail) = error else {
                    Issue.record("unexpected error \(error)")
                    continue
                }
                #expect(path == store.fileURL(for: id).path)
                #expect(detail.contains("the state after event 1 is too large to rebuild")
                        && detail.contains("the limit of \(bound) bytes"), "\(detail)")
            }
            // The states before it are read as ever.
            #expect(try opened.state(at: 0)["filler"]?.stringValue?.count == 1000)
        }
    }
}

/// An error handed from an export thread to the test.
private final class ErrorBox: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var stored: (any Error)?
    func set(_ error: any Error) { lock.withLock { stored = error } }
    var value: (any Error)? { lock.withLock { stored } }
}
