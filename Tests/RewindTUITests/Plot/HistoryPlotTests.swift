import Foundation
import RewindTestSupport
import Testing
import RewindSessionFile
import RewindTUI
import RewindWire

@Suite("The value plot (b B on a node of the State tab)")
struct HistoryPlotTests {
    /// Puts `app` on event `event` (the last, 11, by default), State tab, detail pane focused, on the node `path`.
    static func onNode(
        _ path: String, at event: Int = 11, in app: TimelineApp, width: Int = 100, height: Int = 30
    ) throws {
        _ = app.renderOnce(width: width, height: height)
        for _ in 0..<3 where app.model.focus != .timeline { app.handle(.tab) }
        app.handle(.character("G"))
        for _ in 0..<(11 - event) { app.handle(.up) }
        #expect(app.model.cursor == event)
        app.handle(.character("3"))
        app.handle(.tab)
        #expect(app.model.focus == .detail)
        let frame = app.renderOnce(width: width, height: height)
        let key = path.split(separator: "/").last.map(String.init) ?? ""
        #expect(frame.contains("\(key):"), "\(frame)")
        // Walk down the tree until the node's line is under the cursor (the line starts with the key).
        for _ in 0..<8 {
            if Self.cursorLine(app, width: width, height: height).contains("\(key):") { return }
            app.handle(.down)
        }
        Issue.record("no line for \(path): \(app.renderOnce(width: width, height: height))")
    }

    /// The text of the detail pane's cursor line (reverse video).
    static func cursorLine(_ app: TimelineApp, width: Int, height: Int) -> String {
        let buffer = app.renderFrame(width: width, height: height)
        let layout = app.model.layout
        for row in layout.detail.row + 1..<layout.detail.bottom {
            let column = layout.detail.column + 1
            if buffer[row, column].style.reverse == true { return buffer.line(row) }
        }
        return ""
    }

    /// The frame's lines from the plot's title (the line starting ` /path · `) on, as many as the plot has.
    static func plotLines(_ frame: String, path: String, rows: Int) -> [String] {
        let lines = frame.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let first = lines.firstIndex(where: { $0.hasPrefix(" \(path) · ") }) else { return [] }
        return Array(lines[first..<min(lines.count, first + rows)])
    }

    @Test("b on a number plots its values off the UI thread: min and max labelled, the selected change marked ▲")
    func plotsNumbers() throws {
        let app = TimelineApp(dataSource: ValueFixtures.counterSource(), actions: RecordingActions(),
                              initialSession: "s-count", environment: [:], clock: { 0 },
                              pinFile: ValueFixtures.temporaryPinFile())
        try Self.onNode("/count", in: app)
        app.handle(.character("b"))
        #expect(app.model.history?.events == [11, 8, 7, 6, 5, 4, 3, 2, 1])
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        let plot = try #require(app.model.historyPlot?.answer)
        #expect(plot.isNumeric)
        #expect(plot.values.map(\.number) == [1, 3, 6, 2, 5, 9, 4, 7, 20])
        let frame = app.renderOnce(width: 100, height: 30)
        let lines = Self.plotLines(frame, path: "/count", rows: 4)
        #expect(lines.count == 4, "\(frame)")
        #expect(lines.first?.contains("/count · ▲ #11 = 20 · min 1 · max 20 · 9/9 changes") == true, "\(lines)")
        #expect(lines[1].contains("█"), "the largest value fills its column: \(lines)")
        #expect(lines[3].contains("#1") && lines[3].contains("#11") && lines[3].contains("▲"), "\(lines)")
        // The marker stands under the last column; b moves it one column left, to event 8's value.
        let markerBefore = try #require(lines[3].firstIndex(of: "▲"))
        app.handle(.character("b"))
        #expect(app.model.cursor == 8)
        let older = Self.plotLines(app.renderOnce(width: 100, height: 30), path: "/count", rows: 4)
        #expect(older.first?.contains("/count · ▲ #8 = 7 · min 1 · max 20 · 8/9 changes") == true, "\(older)")
        let markerAfter = try #require(older.last?.firstIndex(of: "▲"))
        #expect(older[3].distance(from: older[3].startIndex, to: markerAfter)
                < lines[3].distance(from: lines[3].startIndex, to: markerBefore))
        // The selected column is drawn in reverse video too (seen in monochrome).
        let buffer = app.renderFrame(width: 100, height: 30)
        let chartRow = try #require((0..<30).first { buffer.line($0).hasPrefix(" /count · ") }) + 1
        let reversed = (0..<100).filter { buffer[chartRow + 1, $0].style.reverse == true
            && buffer[chartRow + 1, $0].character != " " }
        #expect(!reversed.isEmpty, "\(buffer.line(chartRow + 1))")
    }

    @Test("b on a value that is not a number shows a strip of its changes along the session, the selected one ◆")
    func stripOfChanges() throws {
        let app = TimelineApp(dataSource: ValueFixtures.counterSource(), actions: RecordingActions(),
                              initialSession: "s-count", environment: [:], clock: { 0 },
                              pinFile: ValueFixtures.temporaryPinFile())
        try Self.onNode("/mode", at: 8, in: app)
        app.handle(.character("b"))
        #expect(app.model.history?.events == [6, 4])
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        #expect(app.model.historyPlot?.answer?.isNumeric == false)
        let lines = Self.plotLines(app.renderOnce(width: 100, height: 30), path: "/mode", rows: 4)
        #expect(lines.first?.contains("/mode · ▲ #6 · along #0–#8 (not numbers) · 2/2 changes") == true, "\(lines)")
        // Events 0…8, one column each: a change at 4, the selected one at 6.
        #expect(lines[2].trimmingCharacters(in: .whitespaces) == "····│·◆··", "\(lines)")
        let marker = lines[3].trimmingCharacters(in: .whitespaces)
        #expect(marker.hasPrefix("#0") && marker.hasSuffix("#8") && marker.contains("▲"), "\(lines)")
    }

    @Test("the plot is read off the UI thread: keys keep answering and the plot says it is reading until it arrives")
    func neverWaitsForTheRead() throws {
        let source = GatedValuesSource(ValueFixtures.counterSource())
        defer { source.open() }
        let app = TimelineApp(dataSource: source, actions: RecordingActions(), initialSession: "s-count",
                              environment: [:], clock: { 0 },
                              pinFile: ValueFixtures.temporaryPinFile())
        try Self.onNode("/count", in: app)
        app.handle(.character("b"))
        let reading = Self.plotLines(app.renderOnce(width: 100, height: 30), path: "/count", rows: 4)
        #expect(reading.first?.contains("/count · 9 changes · reading values…") == true, "\(reading)")
        app.handle(.character("b"))  // the keys still answer: one change older
        #expect(app.model.cursor == 8)
        #expect(app.model.historyPlot?.answer == nil)
        source.open()
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        let plotted = Self.plotLines(app.renderOnce(width: 100, height: 30), path: "/count", rows: 4)
        #expect(plotted.first?.contains("/count · ▲ #8 = 7 · min 1 · max 20") == true, "\(plotted)")
    }

    @Test("the README's capture of the plot is what the renderer draws for the same fixture")
    func readmeCapture() throws {
        let app = TimelineApp(dataSource: ValueFixtures.counterSource(), actions: RecordingActions(),
                              initialSession: "s-count", environment: [:], clock: { 0 },
                              pinFile: ValueFixtures.temporaryPinFile())
        try Self.onNode("/count", in: app, width: 100, height: 50)
        app.handle(.character("b"))
        app.handle(.character("b"))
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        let lines = Self.plotLines(app.renderOnce(width: 100, height: 50), path: "/count", rows: 6)
        let readme = try ValueFixtures.readmeBlock(after: "<!-- value plot capture -->")
        #expect(lines == readme, "rendered:\n\(lines.joined(separator: "\n"))")
    }
}

@Suite("A long value history: the newest changes at once, the rest with the plot")
struct LongHistoryPlotTests {
    @Test("b reads the newest 1,000 changes on the UI thread; the plot thread reads all 1,500, and the list grows")
    func partialThenWhole() throws {
        let source = InMemoryTimelineDataSource(header: TimelineHeader(caption: "long"))
        source.addSession(id: "s-long", appName: "long", startedAt: Fixtures.start, status: .ended,
                          initialState: ["n": 0])
        for index in 1...1_500 {
            _ = try? source.append(session: "s-long", time: Fixtures.start + Double(index), label: "tick",
                                   patch: JSONPatch([.replace(path: JSONPointer(tokens: ["n"]),
                                                              value: .int(Int64(index)))]))
        }
        let app = TimelineApp(dataSource: source, actions: RecordingActions(), initialSession: "s-long",
                              environment: [:], clock: { 0 },
                              pinFile: ValueFixtures.temporaryPinFile())
        _ = app.renderOnce(width: 100, height: 30)
        app.handle(.character("G"))
        app.handle(.character("3"))
        app.handle(.tab)
        app.handle(.character("g"))
        app.handle(.character("b"))
        let first = try #require(app.model.history)
        #expect(first.events.count == StateHistoryCursor.firstReadLimit && !first.complete)
        #expect(first.summary.hasPrefix("/n changed by more than 1000 events, newest first: [#1500] #1499"),
                "\(first.summary)")
        #expect(app.waitForCommands(timeout: TestTime.seconds(20)))
        let whole = try #require(app.model.history)
        #expect(whole.complete && whole.events == Array((1...1_500).reversed()))
        #expect(app.model.status?.text.hasPrefix("/n changed by 1500 events") == true,
                "\(app.model.status?.text ?? "")")
        let lines = HistoryPlotTests.plotLines(app.renderOnce(width: 100, height: 30), path: "/n", rows: 4)
        #expect(lines.first?.contains("/n · ▲ #1500 = 1500 · min ") == true, "\(lines)")
        #expect(lines.first?.contains("· max 1500 · 1,500/1,500 changes") == true, "\(lines)")
        #expect(app.model.historyPlot?.answer?.events == nil, "the list lives in the history, not twice")
    }
}
