import Foundation
import RewindTestSupport
import Testing

/// Issue 33 through the real `rewind` in tmux with the `counter` sample: `b` on `/count` plots its values (min and
/// max labelled, the selected change marked `▲`), `w` pins `/count` and its value shows beside every row, the pin is
/// saved in `$XDG_CONFIG_HOME/rewind/pins.json` (a temporary directory), and keys keep answering — at 80×24, 120×40
/// and 200×60.
@Suite("The value plot and pinned watches in a terminal (tmux)", .serialized,
       .enabled(if: Tmux.isAvailable, "tmux is not installed"))
struct ValuePlotAndPinsTmuxTests {
    /// The counter's commands, and the count after each.
    static let script = ["add 1", "add 2", "add 5", "add 3", "add 10", "decrement", "add 4"]
    static let counts = [1, 3, 8, 11, 21, 20, 24]

    /// The timeline pane's width in a `width`-column terminal (stacked below 120 columns; 55 %, or 46 % from 160).
    static func paneWidth(_ width: Int) -> Int {
        width >= 160 ? width * 46 / 100 : width >= 120 ? width * 55 / 100 : width
    }

    /// The pinned column's text on the row of event `index`: the ten columns left of the session map (two columns at
    /// the pane's right edge).
    static func pinnedCell(_ index: Int, in screen: String, width: Int) -> String? {
        let prefix = String(repeating: " ", count: max(0, 4 - String(index).count)) + "\(index) "
        guard let line = screen.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }).map(Array.init) else {
            return nil
        }
        let right = paneWidth(width) - 2
        guard line.count >= right else { return nil }
        return String(line[(right - 10)..<right]).trimmingCharacters(in: .whitespaces)
    }

    @Test("b on /count plots it; w pins it beside every row and saves the pin; keys keep answering",
          arguments: [(80, 24), (120, 40), (200, 60)])
    func plotAndPin(width: Int, height: Int) throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-plot-\(UUID().uuidString)")
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-cfg-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: data)
            try? FileManager.default.removeItem(at: config)
        }
        let port = FreePort.next()
        let tmux = try Tmux(command: "XDG_CONFIG_HOME=\(config.path) \(Executables.path("rewind")) --port \(port) "
                            + "--data \(data.path)", width: width, height: height)
        defer { tmux.kill() }
        #expect(tmux.waitForScreen { $0.contains("127.0.0.1:\(port)") } != nil, "\(tmux.screen)")
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-plot-\(UUID()).txt").path
        defer { try? FileManager.default.removeItem(atPath: script) }
        try Self.script.joined(separator: "\n").write(toFile: script, atomically: true, encoding: .utf8)
        let app = try ChildProcess(Executables.path("counter"), ["--script", script],
                                   environment: ["REWIND_URL": "ws://127.0.0.1:\(port)"])
        #expect(app.waitForExit() == 0)
        #expect(tmux.waitForScreen { $0.contains("7 events") } != nil, "\(tmux.screen)")

        // The State tab of the last event, on /count; b lists its changes and plots them.
        tmux.send("G", "3", "Tab", "g")
        #expect(tmux.waitForScreen { $0.contains("count: 24") } != nil, "\(tmux.screen)")
        tmux.send("b")
        let plotted = try #require(tmux.waitForScreen { $0.contains("▲ #7 = 24 · min 1 · max 24") },
                                   "\(tmux.screen)")
        #expect(plotted.contains("█"), "the largest value fills its column: \(plotted)")
        #expect(plotted.split(separator: "\n").contains { $0.contains("▲") && $0.contains("#1") && !$0.contains("min") },
                "the marker row: \(plotted)")
        tmux.send("b")
        #expect(tmux.waitForScreen { $0.contains("▲ #6 = 20") } != nil, "b steps the marker: \(tmux.screen)")

        // w pins /count: every row shows its count after that row.
        tmux.send("w")
        let pinned = try #require(tmux.waitForScreen { screen in
            screen.contains("pinned /count for counter")
                && Self.pinnedCell(3, in: screen, width: width) == "\(Self.counts[2])"
        }, "\(tmux.screen)")
        #expect(Self.pinnedCell(0, in: pinned, width: width) == "0" || !pinned.contains("initial state"),
                "\(pinned)")
        let saved = try String(contentsOf: config.appendingPathComponent("rewind/pins.json"), encoding: .utf8)
        #expect(saved.contains("\"counter\"") && saved.contains("\"/count\""), "\(saved)")

        // Keys keep answering: back to the timeline, to the first row, whose pinned value is the initial 0.
        tmux.send("Tab", "Tab", "g")
        let top = try #require(tmux.waitForScreen { Self.pinnedCell(0, in: $0, width: width) == "0" },
                               "\(tmux.screen)")
        for index in 1...min(3, Self.counts.count) {
            #expect(Self.pinnedCell(index, in: top, width: width) == "\(Self.counts[index - 1])", "\(top)")
        }
        tmux.send("q")
        #expect(tmux.waitForExit(), "rewind quit")
    }
}
