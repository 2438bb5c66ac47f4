import Foundation
import RewindTestSupport
import Testing

/// Issue 33 on the suite's 1,000,000-event session (`MillionEventSession`): the value plot of a node changed by half
/// a million events, and a pinned watch beside the rows at the session's end.
extension TimelineSearchTmuxTests {
    @Test("b on /n at event 500,000 plots its ~500,000 changes off the UI thread; w pins /n beside the last rows")
    func plotAndPinMillionEvents() throws {
        let file = try #require(MillionEventSession.current)
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-cfg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: config) }
        let tmux = try Tmux(command: "XDG_CONFIG_HOME=\(config.path) \(Executables.path("rewind")) open "
                            + "\(file.id.rawValue) --data \(file.directory.path)", width: 120, height: 40)
        defer { tmux.kill() }
        #expect(tmux.waitForScreen { $0.contains("1,000,000 events") } != nil, "\(tmux.screen)")
        tmux.send(":")
        tmux.sendLiteral("500000")
        tmux.send("Enter")
        tmux.send("3", "Tab", "g")
        #expect(tmux.waitForScreen(timeout: 20) { $0.contains("n: 500000") } != nil, "\(tmux.screen)")

        let started = Date()
        tmux.send("b")
        let listed = try #require(tmux.waitForScreen(timeout: 30) { $0.contains("/n changed by") }, "\(tmux.screen)")
        let listedAfter = Date().timeIntervalSince(started)
        // The plot arrives from the plot thread; the screen keeps answering meanwhile (the help opens and closes).
        tmux.send("?")
        #expect(tmux.waitForScreen(timeout: 20) { $0.contains("Keys") } != nil, "\(tmux.screen)")
        tmux.send("Escape")
        let plotted = try #require(tmux.waitForScreen(timeout: 60) { screen in
            screen.contains("▲ #500000 = 500000 · min ") && screen.contains(" · max 500000")
        }, "\(tmux.screen)")
        let plottedAfter = Date().timeIntervalSince(started)
        print("b on /n at event 500,000 of 1,000,000: changes listed after \(Int(listedAfter * 1000)) ms, "
              + "plot on screen after \(Int(plottedAfter * 1000)) ms")
        #expect(listed.contains("changed by"), "\(listed)")
        #expect(plotted.contains("█"), "\(plotted)")

        // w pins /n; at the end of the session each row shows its own n.
        tmux.send("w")
        #expect(tmux.waitForScreen { $0.contains("pinned /n for million") } != nil, "\(tmux.screen)")
        tmux.send("Tab", "Tab", "G")
        let end = try #require(tmux.waitForScreen(timeout: 30) { screen in
            Self.pinnedCell(999_999, in: screen) == "999999" && Self.pinnedCell(1_000_000, in: screen) == "1000000"
        }, "\(tmux.screen)")
        #expect(Self.pinnedCell(999_998, in: end) == "999998", "\(end)")
        tmux.send("q")
        #expect(tmux.waitForExit(), "rewind open quit")
    }

    /// The pinned column's text on the row of event `index` at 120 columns: the ten columns left of the session
    /// map, which ends the 66-column timeline pane.
    private static func pinnedCell(_ index: Int, in screen: String) -> String? {
        let prefix = String(repeating: " ", count: max(0, 8 - String(index).count)) + "\(index) "
        guard let line = screen.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }).map(Array.init),
              line.count >= 64 else { return nil }
        return String(line[54..<64]).trimmingCharacters(in: .whitespaces)
    }
}
