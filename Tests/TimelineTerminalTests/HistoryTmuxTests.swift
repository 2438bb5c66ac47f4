import Foundation
import RewindTestSupport
import RewindWire
import Testing

/// Issue 22 through the real `rewind` in tmux: the rows a jump and a replay record say which event and which range,
/// `b` on a node of the State tab lists the events that changed it and steps through them, and `m` + the Diff tab
/// compare two events.
@Suite("State history, compare and row labels in a terminal (tmux)", .serialized,
       .enabled(if: Tmux.isAvailable, "tmux is not installed"))
struct HistoryTmuxTests {
    /// The screen row of timeline event `index`.
    private static func row(_ index: Int, in screen: String) -> String? {
        let prefix = String(repeating: " ", count: max(0, 4 - String(index).count)) + "\(index) "
        return screen.split(separator: "\n").first { $0.hasPrefix(prefix) }.map(String.init)
    }

    /// Puts the cursor on event `index` (from the top) and waits until the detail pane shows it.
    private static func select(_ index: Int, in tmux: Tmux) {
        tmux.send("g")
        for _ in 0..<index { tmux.send("j") }
        _ = tmux.waitForScreen { $0.contains("#\(index) ") }
    }

    @Test("jump and replay rows name their target; b lists a node's changes; m and the Diff tab compare two events")
    func historyCompareAndLabels() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-history-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let (tmux, port) = try TimelineTruthTmuxTests.startRewind(data: data, width: 140, height: 36)
        defer { tmux.kill() }

        let app = try TimelineTruthTmuxTests.CounterPeer(port: port)
        let now = Date().timeIntervalSince1970
        try app.add(1, at: now)  // count 1
        try app.add(2, at: now + 0.01)  // count 3
        try app.add(3, at: now + 0.02)  // count 6
        app.startAnswering()
        defer { app.stop() }
        #expect(tmux.waitForScreen { $0.contains("3 events") } != nil)

        // Enter on event 1 jumps there: the row says so, once.
        Self.select(1, in: tmux)
        tmux.send("Enter")
        let jumped = try #require(tmux.waitForScreen { $0.contains("4 events") }, "\(tmux.screen)")
        let jumpRow = try #require(Self.row(4, in: jumped), "\(jumped)")
        #expect(jumpRow.contains("jump to #1") && !jumpRow.contains("jump  jump"), "\(jumpRow)")

        // b on the count node of event 4's State tab: changed by the jump (6 → 1), 3, 2 and 1, newest first.
        tmux.send("G")
        tmux.send("3")
        tmux.send("Tab")
        tmux.send("g")
        _ = tmux.waitForScreen { $0.contains("count: 1") }
        tmux.send("b")
        let listed = try #require(tmux.waitForScreen { $0.contains("/count changed by") }, "\(tmux.screen)")
        #expect(listed.contains("/count changed by 4 events, newest first: [#4] #3 #2 #1"), "\(listed)")
        tmux.send("b")
        let older = try #require(tmux.waitForScreen { $0.contains("#4 [#3] #2 #1") }, "\(tmux.screen)")
        #expect(older.contains("count: 6"), "the State tab shows event 3's value: \(older)")
        tmux.send("b")
        #expect(tmux.waitForScreen { $0.contains("#4 #3 [#2] #1") && $0.contains("count: 3") } != nil,
                "\(tmux.screen)")

        // m marks event 2; on event 4 the Diff tab shows the patch from 2's state (3) to 4's (1).
        tmux.send("m")
        #expect(tmux.waitForScreen { $0.contains("marked #2") } != nil, "\(tmux.screen)")
        tmux.send("Tab", "Tab")  // detail → sessions → timeline
        tmux.send("G")
        tmux.send("2")
        let compared = try #require(tmux.waitForScreen { $0.contains("#2 → #4") }, "\(tmux.screen)")
        #expect(compared.contains("count: 3 → 1"), "\(compared)")

        // r on event 2 replays events 2–4's actions: the replay row names the range.
        tmux.send("m")  // on #4: marks it instead; m again clears
        tmux.send("m")
        Self.select(2, in: tmux)
        tmux.send("r")
        let replayed = try #require(tmux.waitForScreen { $0.contains("5 events") }, "\(tmux.screen)")
        #expect(Self.row(5, in: replayed)?.contains("replay of #2–#4") == true, "\(replayed)")

        tmux.send("q")
        #expect(tmux.waitForScreen { $0.contains("Quit rewind?") } != nil)
        tmux.send("y")
        #expect(tmux.waitForExit(), "rewind quit")
    }
}
