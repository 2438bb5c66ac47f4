import Foundation
@testable import RewindDaemon
@testable import RewindSessionFile
import RewindWire
import Testing

/// A saved session of 1,000,000 events in a fresh data directory, written once for a whole suite (the
/// `.millionEventSession` trait) and removed after it.
///
/// Event i (an `action` labelled `tick`, or `tock` when i is a multiple of 1,000) sets `/n` to i, and `/k` to i / 1000
/// when it is a `tock`; event 987,654 is labelled `needle/found`; the 100 events i ≡ 5,555 (mod 10,000) are `note`
/// rows that change nothing. The last event (a `tock`) also adds `/items`, an array of the 5,000 numbers 0…4,999,
/// and `/text`, ``longText``. Event i is recorded at +i ms.
///
/// The first 1,000 events are recorded through the store's API, so the file is a real recording (meta, keyframes,
/// the label and path indexes); the rest are appended in the same format by SQL statements, with the path-index rows
/// the writer gives such events (`/n` for each action, `/k` too for a `tock`; recording 1,000,000 events through the
/// API takes ~20 s in a debug build). Threading: immutable.
struct MillionEventSession: Sendable {
    /// The number of events.
    static let count = 1_000_000
    /// The event labelled `needle/found`.
    static let needle = 987_654
    /// The long string of `/text` at the last event.
    static let longText = (0..<80).map { "line-\($0)-of-the-story" }.joined(separator: " ") + " THE-END"

    /// The session directory (`--data`).
    let directory: URL
    /// The session.
    let id: SessionID

    /// The session of the running suite (nil outside one with the trait).
    @TaskLocal static var current: MillionEventSession?

    /// Writes the session into a new temporary directory.
    static func write() throws -> MillionEventSession {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-million-\(UUID().uuidString)")
        let store = try SessionStore(directory: directory)
        let start = Date().timeIntervalSince1970.rounded(.down)
        let recording = try store.createSession(appName: "million", protocolVersion: 1, initialState: ["n": 0, "k": 0],
                                                startedAt: Date(timeIntervalSince1970: start))
        for index in 1...1_000 {
            let value = JSONValue.int(Int64(index))
            var operations = [JSONPatchOperation.replace(path: JSONPointer(tokens: ["n"]), value: value)]
            if index == 1_000 { operations.append(.replace(path: JSONPointer(tokens: ["k"]), value: 1)) }
            recording.append(NewEvent(appSeq: Int64(index), time: start + Double(index) / 1000,
                                      label: index == 1_000 ? "tock" : "tick", action: ["n": value],
                                      patch: JSONPatch(operations)),
                             stateAfter: ["n": value, "k": index == 1_000 ? 1 : 0])
        }
        recording.finish(endState: .clean)

        let last = count
        let items = JSONValue.array((0..<5_000).map { .int(Int64($0)) })
        let lastPatch = JSONPatch([
            .replace(path: JSONPointer(tokens: ["n"]), value: .int(Int64(last))),
            .replace(path: JSONPointer(tokens: ["k"]), value: .int(Int64(last / 1000))),
            .add(path: JSONPointer(tokens: ["items"]), value: items),
            .add(path: JSONPointer(tokens: ["text"]), value: .string(longText)),
        ]).json.serialized()
        let lastState = JSONValue.object(["n": .int(Int64(last)), "k": .int(Int64(last / 1000)), "items": items,
                                          "text": .string(longText)]).serialized()
        let isNote = "i % 10000 = 5555"
        let database = try SQLiteDatabase(path: store.fileURL(for: recording.id).path, mode: .readWrite)
        defer { database.close() }
        try database.execute("""
            BEGIN;
            WITH RECURSIVE seq(i) AS (SELECT 1001 UNION ALL SELECT i + 1 FROM seq WHERE i < \(last - 1))
            INSERT INTO events (idx, branch, app_seq, time, kind, label, action, patch, detail)
            SELECT i, 0, CASE WHEN \(isNote) THEN NULL ELSE i END, \(start) + i / 1000.0,
                   CASE WHEN \(isNote) THEN 'note' ELSE 'action' END,
                   CASE WHEN \(isNote) THEN NULL WHEN i = \(needle) THEN 'needle/found'
                        WHEN i % 1000 = 0 THEN 'tock' ELSE 'tick' END,
                   CASE WHEN \(isNote) THEN NULL ELSE json_object('n', i) END,
                   CASE WHEN \(isNote) THEN NULL WHEN i % 1000 = 0
                        THEN json_array(json_object('op', 'replace', 'path', '/n', 'value', i),
                                        json_object('op', 'replace', 'path', '/k', 'value', i / 1000))
                        ELSE json_array(json_object('op', 'replace', 'path', '/n', 'value', i)) END,
                   CASE WHEN \(isNote) THEN 'a note at ' || i ELSE NULL END
            FROM seq;
            INSERT INTO events (idx, branch, app_seq, time, kind, label, action, patch)
            VALUES (\(last), 0, \(last), \(start) + \(last) / 1000.0, 'action', 'tock',
                    json_object('n', \(last), 'load', json('true')), '\(lastPatch)');
            WITH RECURSIVE k(i) AS (SELECT 1000 UNION ALL SELECT i + 1000 FROM k WHERE i + 1000 < \(last))
            INSERT OR IGNORE INTO keyframes (branch, idx, state) SELECT 0, i, json_object('n', i, 'k', i / 1000) FROM k;
            INSERT OR REPLACE INTO keyframes (branch, idx, state) VALUES (0, \(last), '\(lastState)');
            INSERT OR IGNORE INTO index_paths (path) VALUES ('/items'), ('/text');
            INSERT INTO path_changes (path_id, branch, idx)
            SELECT (SELECT id FROM index_paths WHERE path = '/n'), 0, idx FROM events WHERE idx > 1000 AND kind = 'action';
            INSERT INTO path_changes (path_id, branch, idx)
            SELECT (SELECT id FROM index_paths WHERE path = '/k'), 0, idx FROM events WHERE idx > 1000 AND idx % 1000 = 0;
            INSERT OR IGNORE INTO path_changes (path_id, branch, idx)
            SELECT id, 0, \(last) FROM index_paths WHERE path IN ('/items', '/text');
            UPDATE meta SET value = '\(last)' WHERE key = 'paths_indexed_through';
            COMMIT;
            """)
        return MillionEventSession(directory: directory, id: recording.id)
    }
}

/// The suite trait that writes a `MillionEventSession` before the suite's first test, makes it
/// `MillionEventSession.current` for its tests, and removes it after the last.
struct MillionEventSessionTrait: SuiteTrait, TestScoping {
    func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @Sendable () async throws -> Void) async throws {
        let started = Date()
        let session = try MillionEventSession.write()
        defer { try? FileManager.default.removeItem(at: session.directory) }
        print("wrote a \(MillionEventSession.count)-event session in \(Int(Date().timeIntervalSince(started) * 1000)) ms")
        try await MillionEventSession.$current.withValue(session) { try await function() }
    }
}

extension Trait where Self == MillionEventSessionTrait {
    /// One 1,000,000-event session file for the whole suite (`MillionEventSession.current`).
    static var millionEventSession: Self { Self() }
}
