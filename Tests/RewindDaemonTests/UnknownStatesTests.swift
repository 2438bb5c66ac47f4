import Foundation
@testable import RewindDaemon
@testable import RewindSessionFile
import RewindWire
import Testing

/// The session file's stretches of unknown state (`SessionReader.unknownStates`), which `rewind state`, the daemon's
/// commands and the timeline all read. In a file of schema 2 each row says whether its state is unknown and which row
/// made it so: a stretch is the rows of one cause, read through an index as the file grows. A file of schema 1 is
/// read through the migration reader, whose label rules must give what reading every row says, and a writer that
/// opens such a file writes those stretches into its rows.
@Suite("Unknown states: the stretches a session file does not hold")
struct UnknownStatesTests {
    /// Schema 1's rule, row by row (docs/SESSION-FORMAT.md): an app's `dropped` row (with a label) starts a stretch at the
    /// next event; `out_of_order` too; `patch_failed` at the action before it; a `snapshot`, `jump`, `replay` or
    /// `reconnect` of the same branch at or after its first event ends it (right at it: nothing was unknown). A
    /// stretch already open stays as it is.
    private func reference(_ events: [RecordedEvent]) -> [UnknownState] {
        var open: [Int64: UnknownState] = [:]
        var closed: [UnknownState] = []
        for event in events {
            let index = event.index, branch = event.branch
            var started: UnknownState?
            switch (event.kind, event.label) {
            case (.dropped, .some):
                started = UnknownState(branch: branch, first: index + 1, last: nil, cause: index, reason: event.detail ?? "",
                                       why: event.label == "lost" ? .lost : .dropped)
            case (.error, "out_of_order"):
                started = UnknownState(branch: branch, first: index + 1, last: nil, cause: index, reason: event.detail ?? "",
                                       why: .outOfOrder)
            case (.error, "patch_failed"):
                started = UnknownState(branch: branch, first: max(1, index - 1), last: nil, cause: index,
                                       reason: event.detail ?? "", why: .patchFailed)
            case (.snapshot, _), (.jump, _), (.replay, _), (.reconnect, _):
                if var stretch = open[branch], index >= stretch.first {
                    open[branch] = nil
                    if index > stretch.first {
                        stretch.last = index - 1
                        closed.append(stretch)
                    }
                }
            default:
                break
            }
            if let started, open[branch] == nil { open[branch] = started }
        }
        return closed + open.values.sorted { $0.branch < $1.branch }
    }

    /// A seeded mix of rows on three branches, each row with the mark the daemon would write: after an app's
    /// `dropped` row or an `out_of_order` error the branch's next rows are unknown (cause: that row); an action whose
    /// patch did not apply and its `patch_failed` error are unknown (cause: the error row); a full state ends it.
    private static func rows(seed: UInt64, count: Int) -> [(event: NewEvent, state: JSONValue)] {
        var random = SeededGenerator(seed: seed)
        var appSeq: Int64 = 0
        var open: [Int64: UnknownStateMark] = [:]
        var rows: [(event: NewEvent, state: JSONValue)] = []
        while rows.count < count {
            let index = Int64(rows.count + 1)
            let branch = Int64(random.next() % 7 < 5 ? 0 : random.next() % 3)
            let roll = random.next() % 100
            let state: JSONValue = ["n": .int(Int64(roll))]
            var event: NewEvent
            var opens: UnknownStateMark?
            switch roll {
            case 0..<4:
                event = NewEvent(time: 1, kind: .dropped, label: "dropped", detail: "states not sent", branch: branch)
                opens = UnknownStateMark(reason: .dropped, cause: index)
            case 4..<5:
                event = NewEvent(time: 1, kind: .error, label: "out_of_order", detail: "bad", branch: branch)
                opens = UnknownStateMark(reason: .outOfOrder, cause: index)
            case 5..<7:
                // The action whose patch did not apply, then its error row: both unknown, caused by the error row.
                appSeq += 1
                let mark = open[branch] ?? UnknownStateMark(reason: .patchFailed, cause: index + 1)
                open[branch] = mark
                rows.append((NewEvent(appSeq: appSeq, time: 1, label: "tick", action: ["t": 1], branch: branch,
                                      meaning: RowMeaning(unknownState: mark)), state))
                event = NewEvent(time: 1, kind: .error, label: "patch_failed", detail: "bad", branch: branch)
            case 7..<8:
                event = NewEvent(time: 1, kind: .error, label: "bad_message", detail: "other", branch: branch)
            case 8..<12:
                let kinds: [EventKind] = [.snapshot, .jump, .replay, .reconnect]
                event = NewEvent(time: 1, kind: kinds[Int(random.next() % 4)], label: "full", branch: branch)
                open[branch] = nil
            default:
                appSeq += 1
                event = NewEvent(appSeq: branch == 0 ? appSeq : nil, time: 1, label: "tick", action: ["t": 1],
                                 patch: JSONPatch([.replace(path: JSONPointer(tokens: ["n"]), value: .int(Int64(roll)))]),
                                 branch: branch)
            }
            event.meaning.unknownState = open[branch]
            rows.append((event, state))
            if let opens, open[branch] == nil { open[branch] = opens }
        }
        return rows
    }

    /// What the rows' marks say: the rows of one cause on one branch, from the first to the last; open while no row
    /// of the branch follows the last.
    private func stated(_ events: [RecordedEvent]) -> [UnknownState] {
        var stretches: [Int64: UnknownState] = [:]
        for event in events {
            guard let mark = event.meaning.unknownState else { continue }
            if var stretch = stretches[mark.cause] {
                stretch.last = event.index
                stretches[mark.cause] = stretch
            } else {
                stretches[mark.cause] = UnknownState(branch: event.branch, first: event.index, last: event.index,
                                                     cause: mark.cause, reason: "", why: mark.reason)
            }
        }
        return stretches.values.map { stretch in
            var stretch = stretch
            if !events.contains(where: { $0.branch == stretch.branch && $0.index > stretch.last! }) { stretch.last = nil }
            return stretch
        }
    }

    private func sorted(_ stretches: [UnknownState]) -> [UnknownState] {
        stretches.map { var s = $0; s.reason = ""; return s }.sorted { ($0.branch, $0.first) < ($1.branch, $1.first) }
    }

    @Test("schema 2: the stretches are the rows the file marks unknown, one per cause, read as the file grows",
          arguments: [1, 2, 3, 4, 5])
    func statedByTheRows(seed: UInt64) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-us-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SessionStore(directory: directory)
        let recording = try store.createSession(appName: "mix", protocolVersion: 1, initialState: ["n": 0])
        let reader = try store.openSession(recording.id)
        let rows = Self.rows(seed: seed, count: 2_400)
        for round in 0..<6 {
            // A round ends after a whole pair (an action and its patch_failed row are written together).
            var end = min(rows.count, (round + 1) * 400)
            while end < rows.count, rows[end].event.label == "patch_failed" { end += 1 }
            for row in rows[min(rows.count, round * 400)..<end] { recording.append(row.event, stateAfter: row.state) }
            recording.flush()
            try reader.refresh()
            let all = try reader.eventsOnAllBranches(1...reader.eventCount)
            #expect(sorted(try reader.unknownStates()) == sorted(stated(all)), "seed \(seed), round \(round)")
            for event in all.prefix(800) {
                #expect((try reader.unknownState(after: event.index) == nil) == event.meaning.stateKnown)
            }
        }
        recording.finish(endState: .clean)
    }

    @Test("schema 1: the migration reader's stretches are what reading every row says, and a writer writes them in",
          arguments: [1, 2, 3])
    func schemaOneFiles(seed: UInt64) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-us1-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SessionStore(directory: directory)
        let recording = try store.createSession(appName: "mix", protocolVersion: 1, initialState: ["n": 0])
        for row in Self.rows(seed: seed, count: 1_200) {
            var event = row.event
            event.meaning = RowMeaning()  // schema 1 did not say
            recording.append(event, stateAfter: row.state)
        }
        recording.finish(endState: .clean)
        try SchemaOneFixture.downgrade(store.fileURL(for: recording.id).path)

        let reader = try store.openSession(recording.id)
        #expect(reader.metadata.schemaVersion == 1)
        let all = try reader.eventsOnAllBranches(1...reader.eventCount)
        let expected = sorted(reference(all))
        #expect(sorted(try reader.unknownStates()) == expected, "seed \(seed)")
        // The rows read from it carry the marks of those stretches.
        #expect(sorted(stated(all)).map(\.cause) == expected.map(\.cause))

        // Resumed, the file becomes schema 2 with the same stretches, stated by its rows.
        let resumed = try store.resumeSession(recording.id)
        resumed.finish(endState: .clean)
        let upgraded = try store.openSession(recording.id)
        #expect(upgraded.metadata.schemaVersion == 2)
        let rewritten = try upgraded.eventsOnAllBranches(1...upgraded.eventCount)
        #expect(rewritten.map(\.meaning) == all.map(\.meaning))
        #expect(sorted(try upgraded.unknownStates()) == sorted(stated(rewritten)))
        #expect(sorted(try upgraded.unknownStates()).map(\.cause) == expected.map(\.cause))
    }
}

extension UnknownStatesTests {
    @Test("schema 1: 'before connect' is read from the connections' times by the migration reader, and written in")
    func schemaOneBeforeConnect() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-us1c-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SessionStore(directory: directory)
        let start = 1_700_000_000.0
        let recording = try store.createSession(appName: "early", protocolVersion: 1, initialState: ["n": 0],
                                                startedAt: Date(timeIntervalSince1970: start))
        // 1: queued before the first connection; 2: after it; 3: the reconnect at +10; 4: queued while away; 5: after.
        let times = [start - 1, start + 1, start + 10, start + 9, start + 11]
        for (offset, time) in times.enumerated() {
            let index = offset + 1
            let kind: EventKind = index == 3 ? .reconnect : .action
            recording.append(NewEvent(appSeq: kind == .action ? Int64(index) : nil, time: time, kind: kind,
                                      label: kind == .action ? "add" : "reconnect",
                                      action: kind == .action ? ["add": .int(Int64(index))] : nil),
                             stateAfter: ["n": .int(Int64(index))], forceKeyframe: kind == .reconnect)
        }
        recording.finish(endState: .clean)
        try SchemaOneFixture.downgrade(store.fileURL(for: recording.id).path)

        let reader = try store.openSession(recording.id)
        #expect(reader.metadata.schemaVersion == 1)
        let read = try reader.eventsOnAllBranches(1...5).map(\.meaning.beforeConnect)
        #expect(read == [true, false, false, true, false])

        let resumed = try store.resumeSession(recording.id)
        resumed.finish(endState: .clean)
        let upgraded = try store.openSession(recording.id)
        #expect(upgraded.metadata.schemaVersion == 2)
        #expect(try upgraded.eventsOnAllBranches(1...5).map(\.meaning.beforeConnect) == read, "written in as read")
    }
}

extension UnknownStatesTests {
    @Test("the actions a session lost are what its lost rows state (meaning.lost), in schema 2; schema 1's rows' actions otherwise")
    func lostCountsFromTheMeaning() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-lost-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SessionStore(directory: directory)
        let recording = try store.createSession(appName: "lossy", protocolVersion: 2, initialState: ["n": 0])
        recording.append(NewEvent(appSeq: 1, time: 1, label: "add", action: ["add": 1]), stateAfter: ["n": 1])
        // The row's display payload says 2 (an older writer's habit); what it states is 5 actions, 2 through 6.
        recording.append(NewEvent(time: 2, kind: .dropped, label: "lost", action: ["from": 2, "to": 3, "actionsLost": 2],
                                  detail: "actions were lost",
                                  meaning: RowMeaning(unknownState: UnknownStateMark(reason: .lost, cause: 2),
                                                      lost: LostActions(from: 2, to: 6, count: 5))),
                         stateAfter: ["n": 1])
        recording.finish(endState: .clean)
        let reader = try store.openSession(recording.id)
        #expect(try reader.actionsLost() == 5)
        #expect(try reader.lastAccountedAction() == 6)
        try SchemaOneFixture.downgrade(store.fileURL(for: recording.id).path)
        let old = try store.openSession(recording.id)
        #expect(try old.actionsLost() == 2, "schema 1 said it in the action")
        #expect(try old.lastAccountedAction() == 3)
    }
}

/// Makes a file of schema 1 out of one this build wrote: the columns of what a row means dropped, the version set back.
enum SchemaOneFixture {
    static func downgrade(_ path: String) throws {
        let database = try SQLiteDatabase(path: path, mode: .readWrite)
        defer { database.close() }
        try database.execute("""
            DROP INDEX events_unknown;
            ALTER TABLE events DROP COLUMN unknown;
            ALTER TABLE events DROP COLUMN unknown_cause;
            ALTER TABLE events DROP COLUMN meaning;
            UPDATE meta SET value = '1' WHERE key = 'schema_version';
            PRAGMA user_version = 1;
            """)
    }
}
