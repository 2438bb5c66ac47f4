import Foundation
import RewindSessionFile
import RewindTestSupport
import RewindWire
import Testing

/// Issue 33's charts through the real `rewind open` in tmux: `C` shows the chart under the rows and cycles its
/// metrics (state size, action rate, reducer time, patch size, off), `▲` marks the selected row's slice and follows
/// the selection, ← → and a click on the chart move the selection by slices, and the other keys keep answering — at
/// 80×24, 120×40 and 200×60.
@Suite("The charts under the timeline in a terminal (tmux)", .enabled(if: Tmux.isAvailable, "tmux is not installed"))
struct SessionChartTmuxTests {
    /// Events in the session.
    static let count = 2_000
    /// The event whose reducer takes 45 ms (the others 20–26 µs).
    static let slowReducer = 1_500
    /// The event whose patch carries 5,000 bytes.
    static let largePatch = 600

    /// A saved session of `count` `tick` actions 10 ms apart (1 ms apart for events 801–1,000), each adding an item
    /// to the state (a keyframe every 100 events), a slow reducer at `slowReducer`, a large patch at `largePatch`.
    static func writeSession() throws -> (directory: URL, id: SessionID) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-chart-\(UUID().uuidString)")
        let store = try SessionStore(directory: directory)
        let start = Date().timeIntervalSince1970.rounded(.down)
        let recording = try store.createSession(appName: "charted", protocolVersion: 2, initialState: ["items": []],
                                                startedAt: Date(timeIntervalSince1970: start))
        var items: [JSONValue] = []
        var note = JSONValue.null
        for index in 1...count {
            let time = index <= 800 ? start + Double(index) / 100
                : index <= 1_000 ? start + 8 + Double(index - 800) / 1_000 : start + 8.2 + Double(index - 1_000) / 100
            items.append(.int(Int64(index)))
            var operations = [JSONPatchOperation.add(path: JSONPointer(tokens: ["items", "-"]), value: .int(Int64(index)))]
            if index == largePatch {
                note = .string(String(repeating: "n", count: 5_000))
                operations.append(.add(path: JSONPointer(tokens: ["note"]), value: note))
            }
            recording.append(NewEvent(appSeq: Int64(index), time: time, label: index % 250 == 0 ? "tock" : "tick",
                                      action: ["add": .int(Int64(index))], patch: JSONPatch(operations),
                                      reducerMicros: index == slowReducer ? 45_000 : Double(20 + index % 7)),
                             stateAfter: ["items": .array(items), "note": note], forceKeyframe: index % 100 == 0)
        }
        recording.finish(endState: .clean)
        return (directory, recording.id)
    }

    /// The chart on `screen`: its caption line, its bar lines, and on its axis line the column of `▲` counted from the
    /// first column of bars; nil when no chart is drawn.
    static func chart(_ screen: String) -> (caption: String, bars: [String], marker: Int?, columns: Int)? {
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let caption = lines.firstIndex(where: { line in ["state size", "action rate", "reducer time", "patch size"]
                                                       .contains { line.hasPrefix(" " + $0) } }),
              let axis = lines[caption...].firstIndex(where: { $0.contains("└") }) else { return nil }
        let axisLine = Array(lines[axis])
        guard let corner = axisLine.firstIndex(of: "└") else { return nil }
        let plot = axisLine[(corner + 1)...].prefix { $0 == "─" || $0 == "▲" }
        let marker = plot.firstIndex(of: "▲").map { $0 - corner - 1 }
        let bars = lines[(caption + 1)..<axis].map { line in
            String(Array(line).dropFirst(corner + 1).prefix(plot.count))
        }
        return (lines[caption], bars, marker, plot.count)
    }

    /// The first event of the selected slice, as the caption names it (`▲ #1,968–1,999`).
    static func selectedSlice(_ caption: String) -> Int? {
        guard let range = caption.range(of: #"▲ #[0-9,]+"#, options: .regularExpression) else { return nil }
        return Int(caption[range].dropFirst(3).replacingOccurrences(of: ",", with: ""))
    }

    /// An xterm mouse report (X10 encoding) of `button` at a zero-based cell.
    static func mouseReport(button: Int, row: Int, column: Int) -> String {
        "\u{1B}[M" + String(UnicodeScalar(UInt8(32 + button))) + String(UnicodeScalar(UInt8(33 + column)))
            + String(UnicodeScalar(UInt8(33 + row)))
    }

    @Test("C cycles the metrics; ▲ follows the selection; ← → and a click move it by slices; keys keep answering",
          arguments: [(80, 24), (120, 40), (200, 60)])
    func charts(width: Int, height: Int) throws {
        let (directory, id) = try Self.writeSession()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tmux = try Tmux(command: "\(Executables.path("rewind")) open \(id.rawValue) --data \(directory.path)",
                            width: width, height: height)
        defer { tmux.kill() }
        #expect(tmux.waitForScreen { $0.contains("2,000 events") } != nil, "\(tmux.screen)")
        #expect(Self.chart(tmux.screen) == nil, "no chart before C")

        // State size: computed off the UI thread, then drawn; the selection (event 0) in the first slice.
        tmux.send("C")
        let shown = try #require(tmux.waitForScreen { screen in
            guard let chart = Self.chart(screen) else { return false }
            return chart.caption.contains("state size") && !chart.caption.contains("charting")
                && chart.bars.contains { $0.contains("█") }
        }, "\(tmux.screen)")
        let first = try #require(Self.chart(shown))
        #expect(first.marker == 0 && Self.selectedSlice(first.caption) == 0, "\(shown)")
        let columns = first.columns
        #expect(columns >= 40, "\(shown)")
        // The state grows: the last column's bar is the tallest (full at the top row).
        #expect(first.bars[0].last == "█", "\(shown)")

        // Each metric by its key, its peak where the session has it.
        tmux.send("C")
        #expect(tmux.waitForScreen { Self.chart($0)?.caption.contains("action rate") == true } != nil, "\(tmux.screen)")
        tmux.send("C")
        let reducer = try #require(tmux.waitForScreen { Self.chart($0)?.caption.contains("reducer time") == true },
                                   "\(tmux.screen)")
        #expect(reducer.contains("45ms┤"), "the y-axis names the slowest reducer: \(reducer)")
        let slow = try #require(Self.chart(reducer))
        let slowColumn = Int(Double(Self.slowReducer) * Double(columns) / Double(Self.count + 1))
        #expect(slow.bars[0].dropFirst(slowColumn).first == "█", "the slow reducer's slice: \(reducer)")
        tmux.send("C")
        let patch = try #require(tmux.waitForScreen { Self.chart($0)?.caption.contains("patch size") == true },
                                 "\(tmux.screen)")
        let large = try #require(Self.chart(patch))
        let largeColumn = Int(Double(Self.largePatch) * Double(columns) / Double(Self.count + 1))
        #expect(large.bars[0].dropFirst(largeColumn).first == "█", "the large patch's slice: \(patch)")

        // The marker follows the selection: G goes to the last event, the last slice.
        tmux.send("G")
        let atEnd = try #require(tmux.waitForScreen { Self.chart($0)?.marker == columns - 1 }, "\(tmux.screen)")
        #expect(Self.chart(atEnd)?.caption.contains("–2,000") == true, "\(atEnd)")

        // Moving on the chart: ← selects the first event of the slice before, shown in the detail pane.
        tmux.send("Left")
        let back = try #require(tmux.waitForScreen { Self.chart($0)?.marker == columns - 2 }, "\(tmux.screen)")
        let previous = try #require(Self.chart(back).flatMap { Self.selectedSlice($0.caption) })
        #expect(tmux.waitForScreen { $0.contains("#\(previous) t") } != nil, "event \(previous) selected: \(tmux.screen)")
        tmux.send("Right")
        #expect(tmux.waitForScreen { Self.chart($0)?.marker == columns - 1 } != nil, "\(tmux.screen)")

        // A click on a column of bars selects that slice's first event.
        let lines = tmux.screen.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
        let axisRow = try #require(lines.firstIndex { $0.contains("└") && $0.contains("▲") })
        let corner = try #require(lines[axisRow].firstIndex(of: "└"))
        let target = columns / 3
        tmux.sendLiteral(Self.mouseReport(button: 0, row: axisRow - 1, column: corner + 1 + target))
        tmux.sendLiteral(Self.mouseReport(button: 3, row: axisRow - 1, column: corner + 1 + target))
        let clicked = try #require(tmux.waitForScreen { Self.chart($0)?.marker == target }, "\(tmux.screen)")
        let slice = try #require(Self.chart(clicked).flatMap { Self.selectedSlice($0.caption) })
        #expect(tmux.waitForScreen { $0.contains("#\(slice) t") } != nil, "event \(slice) selected: \(tmux.screen)")
        // ↑ moves the row, and the marker with it when the row leaves the slice.
        tmux.send("Up")
        #expect(tmux.waitForScreen { Self.chart($0)?.marker == target - 1 } != nil, "\(tmux.screen)")

        // Keys keep answering with the chart shown; C after the last metric hides it.
        tmux.send("t")
        #expect(tmux.waitForScreen { $0.contains("wall-clock times") } != nil, "\(tmux.screen)")
        tmux.send("C")
        #expect(tmux.waitForScreen { $0.contains("chart hidden") && Self.chart($0) == nil } != nil, "\(tmux.screen)")
        tmux.send("q")
        #expect(tmux.waitForExit(), "rewind open quit")
    }
}

/// The chart of a 1,000,000-event session in a terminal: drawn within seconds, the keys answering while it is
/// computed, the marker and ← → working across a million events.
@Suite("The chart of a million events in a terminal (tmux)", .serialized, .millionEventSession,
       .enabled(if: Tmux.isAvailable, "tmux is not installed"))
struct SessionChartMillionTmuxTests {
    @Test("C on 1,000,000 events: the chart is drawn within seconds, keys answer meanwhile, ← → move by slices")
    func millionEvents() throws {
        let file = try #require(MillionEventSession.current)
        let tmux = try Tmux(command: "\(Executables.path("rewind")) open \(file.id.rawValue) --data \(file.directory.path)",
                            width: 120, height: 40)
        defer { tmux.kill() }
        #expect(tmux.waitForScreen { $0.contains("1,000,000 events") } != nil, "\(tmux.screen)")
        let started = Date()
        tmux.send("C")
        // Keys answer while the chart is computed: go to event 500,000.
        tmux.send(":")
        tmux.sendLiteral("500000")
        tmux.send("Enter")
        let drawn = try #require(tmux.waitForScreen(timeout: 20) { screen in
            guard let chart = SessionChartTmuxTests.chart(screen) else { return false }
            return !chart.caption.contains("charting") && chart.bars.contains { $0.contains("█") }
                && screen.contains("#500000 t")
        }, "\(tmux.screen)")
        print("chart of 1,000,000 events at 120×40 on screen after \(Int(Date().timeIntervalSince(started) * 1000)) ms "
              + "(debug build, through tmux, with a go-to meanwhile)")
        let chart = try #require(SessionChartTmuxTests.chart(drawn))
        let columns = chart.columns
        #expect(chart.marker == Int(500_000.0 * Double(columns) / 1_000_001), "\(drawn)")
        // → goes to the first event of the next slice.
        tmux.send("Right")
        let moved = try #require(tmux.waitForScreen { (SessionChartTmuxTests.chart($0)?.marker ?? 0) == (chart.marker ?? 0) + 1 },
                                 "\(tmux.screen)")
        let slice = try #require(SessionChartTmuxTests.chart(moved).flatMap { SessionChartTmuxTests.selectedSlice($0.caption) })
        #expect(slice > 500_000 && slice < 500_000 + 2 * 1_000_001 / columns, "\(moved)")
        #expect(tmux.waitForScreen { $0.contains("#\(slice) t") } != nil, "\(tmux.screen)")
        // The patch chart: the last event's patch (5,000 numbers and a long string) is the largest by far.
        tmux.send("C", "C", "C")
        let patch = try #require(tmux.waitForScreen { SessionChartTmuxTests.chart($0)?.caption.contains("patch size") == true },
                                 "\(tmux.screen)")
        let patches = try #require(SessionChartTmuxTests.chart(patch))
        #expect(patches.bars[0].last == "█" && patches.bars[0].dropLast().allSatisfy { $0 != "█" }, "\(patch)")
        tmux.send("q")
        #expect(tmux.waitForExit(), "rewind open quit")
    }
}
