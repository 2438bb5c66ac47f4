import Foundation
@testable import RewindDaemon
import RewindWire
import Testing

/// Issue 22's search through the real `rewind open` in tmux, on a 1,000,000-event session file: a label search
/// lands at once (the label index), the row filter hides every other row, a state search that reads every event runs off the UI thread with its
/// progress on screen while the keys keep answering, and Esc cancels it.
@Suite("Searching a million events in a terminal (tmux)", .serialized,
       .enabled(if: Tmux.isAvailable, "tmux is not installed"))
struct TimelineSearchTmuxTests {
    /// The one event labelled `needle/found`.
    static let needle = 987_654

    /// A saved session of `count` events, event i setting `/n` to i: the first 1,000 recorded through the store's
    /// API (so the file is a real recording: meta, keyframes, the label index), the rest appended in the same
    /// format by one SQL statement (recording 1,000,000 events through the API takes ~20 s in a debug build).
    static func millionEventSession(count: Int = 1_000_000, in directory: URL) throws -> SessionID {
        let store = try SessionStore(directory: directory)
        let start = Date().timeIntervalSince1970.rounded(.down)
        let recording = try store.createSession(appName: "search", protocolVersion: 1, initialState: ["n": 0],
                                                startedAt: Date(timeIntervalSince1970: start))
        for index in 1...1_000 {
            let value = JSONValue.int(Int64(index))
            recording.append(NewEvent(appSeq: Int64(index), time: start + Double(index) / 1000,
                                      label: index % 1000 == 0 ? "tock" : "tick", action: ["n": value],
                                      patch: JSONPatch([.replace(path: JSONPointer(tokens: ["n"]), value: value)])),
                             stateAfter: ["n": value])
        }
        recording.finish(endState: .clean)
        let database = try SQLiteDatabase(path: store.fileURL(for: recording.id).path, mode: .readWrite)
        defer { database.close() }
        try database.execute("""
            BEGIN;
            WITH RECURSIVE seq(i) AS (SELECT 1001 UNION ALL SELECT i + 1 FROM seq WHERE i < \(count))
            INSERT INTO events (idx, branch, app_seq, time, kind, label, action, patch)
            SELECT i, 0, i, \(start) + i / 1000.0, 'action',
                   CASE WHEN i = \(needle) THEN 'needle/found' WHEN i % 1000 = 0 THEN 'tock' ELSE 'tick' END,
                   json_object('n', i), json_array(json_object('op', 'replace', 'path', '/n', 'value', i))
            FROM seq;
            WITH RECURSIVE k(i) AS (SELECT 1000 UNION ALL SELECT i + 1000 FROM k WHERE i + 1000 <= \(count))
            INSERT OR IGNORE INTO keyframes (branch, idx, state) SELECT 0, i, json_object('n', i) FROM k;
            COMMIT;
            """)
        return recording.id
    }

    @Test("label search lands at once; Tab hides other rows; a state search shows progress, keys answer meanwhile, Esc cancels it")
    func searchMillionEvents() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-search-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let id = try Self.millionEventSession(in: data)
        let tmux = try Tmux(command: "\(Executables.path("rewind")) open \(id.rawValue) --data \(data.path)")
        defer { tmux.kill() }
        #expect(tmux.waitForScreen { $0.contains("1,000,000 events") } != nil, "\(tmux.screen)")

        // A label search: the label index answers at once.
        tmux.send("/")
        tmux.sendLiteral("needle")
        let started = Date()
        tmux.send("Enter")
        let found = try #require(tmux.waitForScreen { $0.contains("#987654 needle/found") }, "\(tmux.screen)")
        let seconds = Date().timeIntervalSince(started)
        #expect(seconds < 3, "the label search over 1,000,000 events took \(seconds) s (debug build, tmux)")
        #expect(found.contains("n/N match"), "n and N are offered once a search ran: \(found)")
        print("label search over 1,000,000 events, keys to screen through tmux: \(Int(seconds * 1000)) ms")

        // The filter that hides rows: only the 1,000 `tock` rows (and the needle's neighbour rows are gone).
        tmux.send("/", "C-u")
        tmux.sendLiteral("tock|needle")
        tmux.send("Tab")
        let only = try #require(tmux.waitForScreen { $0.contains("1,001 of 1,000,000 events shown (only /tock|needle/)") },
                                "\(tmux.screen)")
        #expect(!only.contains(" tick "), "no tick row is shown: \(only)")
        tmux.send("g", "j", "j")
        let top = try #require(tmux.waitForScreen { $0.contains("#2000 tock") }, "\(tmux.screen)")
        #expect(top.contains("   1000  +0:01.000   tock") || top.contains("  1000 "), "\(top)")
        tmux.send("Escape")
        #expect(tmux.waitForScreen { $0.contains("filter cleared") && $0.contains(" tick ") } != nil, "\(tmux.screen)")

        // A state search that never matches reads all 1,000,000 states: it runs off the UI thread with progress.
        tmux.send("/", "C-u")
        tmux.sendLiteral("s:/n == -1")
        tmux.send("Enter")
        let progress = try #require(tmux.waitForScreen {
            $0.contains("searching state:/n == -1…") && $0.contains("% of 1,000,000 events — Esc cancels")
        }, "\(tmux.screen)")
        #expect(progress.contains("Esc cancel search"), "the footer offers Esc: \(progress)")

        // Keys keep answering meanwhile: go to event 500.
        tmux.send(":")
        tmux.sendLiteral("500")
        tmux.send("Enter")
        #expect(tmux.waitForScreen { $0.contains("#500 tick") } != nil, "go-to answered during the search: \(tmux.screen)")
        tmux.send("j")
        #expect(tmux.waitForScreen { $0.contains("#501 tick") && $0.contains("Esc cancels") } != nil,
                "the cursor moved and the search still runs: \(tmux.screen)")

        // Esc cancels it.
        tmux.send("Escape")
        let cancelled = try #require(tmux.waitForScreen { $0.contains("search cancelled") }, "\(tmux.screen)")
        #expect(!cancelled.contains("Esc cancels"))
        #expect(cancelled.contains("#501 tick"), "the cursor stayed where the user put it")

        // A state search that matches: the event where the condition becomes true.
        tmux.send("/", "C-u")
        tmux.sendLiteral("s:/n == 2500")
        tmux.send("Enter")
        #expect(tmux.waitForScreen { $0.contains("#2500 tick") && $0.contains("event 2,500: state:/n == 2500") }
                != nil, "\(tmux.screen)")
        tmux.send("q")
        #expect(tmux.waitForExit(), "rewind open quit")
    }
}
