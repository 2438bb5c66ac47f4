import Foundation
import RewindSessionFile
import RewindTestSupport
import RewindWire
import Testing

/// Issue 33 through the real `rewind open` in tmux: the session map beside the rows marks where an error, a dropped
/// range (states unknown) and a label search's matches are, at 80×24, 120×40 and 200×60; `/` narrows the list while
/// typing, Esc gives every row back, Enter keeps the narrowed list; `M` hides the map.
@Suite("The session map and filter as you type in a terminal (tmux)",
       .enabled(if: Tmux.isAvailable, "tmux is not installed"))
struct SessionMapTmuxTests {
    /// Events in the session.
    static let count = 2_000
    /// The `error` row.
    static let error = 500
    /// The `dropped` row; the states of the actions after it are unknown up to the snapshot at `snapshot`.
    static let dropped = 1_200
    /// The snapshot closing the dropped range.
    static let snapshot = 1_400

    /// A saved session of `count` events: `tick` actions, `tock` every 250th, an error, a dropped range.
    static func writeSession() throws -> (directory: URL, id: SessionID) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-map-\(UUID().uuidString)")
        let store = try SessionStore(directory: directory)
        let start = Date().timeIntervalSince1970.rounded(.down)
        let recording = try store.createSession(appName: "mapped", protocolVersion: 2, initialState: ["n": 0],
                                                startedAt: Date(timeIntervalSince1970: start))
        let unknown = UnknownStateMark(reason: .dropped, cause: Int64(dropped))
        for index in 1...count {
            let value = JSONValue.int(Int64(index))
            let time = start + Double(index) / 100
            switch index {
            case error:
                recording.append(NewEvent(time: time, kind: .error, label: "patch_failed", detail: "a patch did not apply"),
                                 stateAfter: ["n": .int(Int64(index - 1))])
            case dropped:
                recording.append(NewEvent(time: time, kind: .dropped, label: "dropped",
                                          detail: "the app's outbox was full; a snapshot follows"),
                                 stateAfter: ["n": .int(Int64(index - 1))])
            case snapshot:
                recording.append(NewEvent(appSeq: Int64(index), time: time, kind: .snapshot, label: "coalesced"),
                                 stateAfter: ["n": value], forceKeyframe: true)
            default:
                let inside = index > dropped && index < snapshot
                recording.append(NewEvent(appSeq: Int64(index), time: time, label: index % 250 == 0 ? "tock" : "tick",
                                          action: ["n": value],
                                          patch: inside ? nil
                                              : JSONPatch([.replace(path: JSONPointer(tokens: ["n"]), value: value)]),
                                          meaning: RowMeaning(unknownState: inside ? unknown : nil)),
                                 stateAfter: ["n": value])
            }
        }
        recording.finish(endState: .clean)
        return (directory, recording.id)
    }

    /// The map's two columns on each row of the timeline (events glyph, scrollbar glyph), top to bottom: the rows
    /// after the column headings whose scrollbar cell holds one of the map's glyphs. The timeline's right edge is
    /// the screen's (stacked panes) or the separator's column (from 120 columns: 55 % of the width, 46 % from 160).
    static func map(_ screen: String, width: Int) -> [(event: Character, track: Character)] {
        let right = width >= 160 ? width * 46 / 100 : width >= 120 ? width * 55 / 100 : width
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
        guard let heading = lines.firstIndex(where: { String($0).contains("time   label") }) else { return [] }
        var result: [(Character, Character)] = []
        for line in lines[(heading + 1)...] {
            guard line.count >= right, "·█◀◆".contains(line[right - 1]) else { break }
            result.append((line[right - 2], line[right - 1]))
        }
        return result
    }

    /// The map row of event `index` when the map has `rows` rows (events 0…count mapped onto them).
    static func row(of index: Int, rows: Int) -> Int {
        SessionMap.bucket(of: Int64(index), in: 0...Int64(count), buckets: rows)
    }

    @Test("the map marks the error, the dropped range and a search's matches; / narrows while typing; M hides the map",
          arguments: [(80, 24), (120, 40), (200, 60)])
    func mapAndFilter(width: Int, height: Int) throws {
        let (directory, id) = try Self.writeSession()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tmux = try Tmux(command: "\(Executables.path("rewind")) open \(id.rawValue) --data \(directory.path)",
                            width: width, height: height)
        defer { tmux.kill() }
        let started = Date()
        // The map's marks arrive from the map thread a moment after the first frame.
        let marked = try #require(tmux.waitForScreen { screen in
            Self.map(screen, width: width).contains { $0.event == "E" }
        }, "\(tmux.screen)")
        print("session map of \(Self.count) events at \(width)×\(height) on screen after "
              + "\(Int(Date().timeIntervalSince(started) * 1000)) ms")
        var map = Self.map(marked, width: width)
        let rows = map.count
        #expect(rows >= 5, "\(marked)")
        #expect(map[Self.row(of: Self.error, rows: rows)].event == "E", "the error's row: \(marked)")
        #expect(map[Self.row(of: Self.dropped, rows: rows)].event == "D", "the dropped row's: \(marked)")
        let inside = Self.row(of: 1_350, rows: rows)
        if inside != Self.row(of: Self.dropped, rows: rows) {
            #expect(map[inside].event == "░", "states unknown inside the range: \(marked)")
        }
        #expect(map[Self.row(of: 100, rows: rows)].event == " ", "nothing at event 100: \(marked)")
        #expect(map[0].track == "◀", "the cursor on the first row: \(marked)")

        // Filter as you type: the list narrows to `tock` rows with the prompt still open, the map marks them.
        tmux.send("/")
        tmux.sendLiteral("tock")
        /// The map rows of the `tock` events (every 250th but the error) that do not share the cursor's row.
        func tockRows(_ map: [(event: Character, track: Character)]) -> [Int] {
            stride(from: 250, through: Self.count, by: 250).filter { $0 != Self.error }
                .map { Self.row(of: $0, rows: map.count) }.filter { $0 != 0 }
        }
        let narrowed = try #require(tmux.waitForScreen { screen in
            let map = Self.map(screen, width: width)
            return screen.contains("only /tock/") && !screen.contains(" tick ") && screen.contains("/tock")
                && !map.isEmpty && tockRows(map).allSatisfy { map[$0].track == "◆" }
        }, "\(tmux.screen)")
        map = Self.map(narrowed, width: width)
        #expect(map[Self.row(of: 100, rows: map.count)].track != "◆", "no match at event 100: \(narrowed)")
        // Esc gives every row back; the prompt is gone.
        tmux.send("Escape")
        #expect(tmux.waitForScreen { $0.contains(" tick ") && !$0.contains("only /tock/") } != nil, "\(tmux.screen)")
        // Enter keeps the narrowed list.
        tmux.send("/")
        tmux.sendLiteral("tock")
        tmux.send("Enter")
        #expect(tmux.waitForScreen { $0.contains("only /tock/") && !$0.contains(" tick ") && $0.contains("#250 tock") }
                != nil, "\(tmux.screen)")
        tmux.send("Escape")
        #expect(tmux.waitForScreen { $0.contains("filter cleared") && $0.contains(" tick ") } != nil, "\(tmux.screen)")
        // M hides the map: the rows take its columns back.
        tmux.send("M")
        #expect(tmux.waitForScreen { $0.contains("session map hidden") && Self.map($0, width: width).isEmpty } != nil,
                "\(tmux.screen)")
        tmux.send("q")
        #expect(tmux.waitForExit(), "rewind open quit")
    }
}
