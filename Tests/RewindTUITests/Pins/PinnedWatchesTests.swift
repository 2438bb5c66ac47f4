import Foundation
import RewindSessionFile
import RewindTestSupport
import RewindTUI
import Testing

@Suite("Pinned watches (w): a pointer's value beside every row")
struct PinnedWatchesTests {
    /// A timeline on the counter fixture whose pins go to a fresh `pins.json` (returned, with its directory to remove).
    private func app(source: any TimelineDataSource = ValueFixtures.counterSource()) -> (TimelineApp, PinFile, URL) {
        let directory = ValueFixtures.temporaryConfigDirectory()
        let file = PinFile(environment: ["XDG_CONFIG_HOME": directory.path])
        let app = TimelineApp(dataSource: source, actions: RecordingActions(), initialSession: "s-count",
                              environment: ["XDG_CONFIG_HOME": directory.path], clock: { 0 }, pinFile: file)
        return (app, file, directory)
    }

    /// The timeline row of event `index` in `frame` (the line whose first word is the index and second its time).
    private func row(_ index: Int, in frame: String) -> String? {
        frame.split(separator: "\n").map(String.init).first { line in
            let words = line.split(separator: " ")
            return words.count > 2 && words[0] == "\(index)" && words[1].hasPrefix("+")
        }
    }

    /// The pinned columns of a row: the `count` words before the session map's (the last word of the timeline pane,
    /// which ends at the separator `│` of the wide layout).
    private func pinned(_ row: String?, count: Int) -> [String] {
        let pane = (row ?? "").split(separator: "│", omittingEmptySubsequences: false).first ?? ""
        return Array(pane.split(separator: " ").suffix(count + 1).prefix(count).map(String.init))
    }

    @Test("w pins the node for the app: each row shows its value after that row, — when absent, ? when unknown")
    func pinAndShow() throws {
        let (app, file, directory) = app()
        defer { try? FileManager.default.removeItem(at: directory) }
        try HistoryPlotTests.onNode("/count", at: 8, in: app, width: 120, height: 40)
        app.handle(.character("w"))
        #expect(app.model.pinnedPointers == ["/count"])
        #expect(app.model.status?.text.hasPrefix("pinned /count for counter") == true)
        try HistoryPlotTests.onNode("/mode", at: 8, in: app, width: 120, height: 40)
        app.handle(.character("w"))
        #expect(app.model.pinnedPointers == ["/count", "/mode"])
        #expect(file.load() == .board(PinBoard(apps: ["counter": ["/count", "/mode"]])), "saved at once")
        _ = app.renderOnce(width: 120, height: 40)
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        let frame = app.renderOnce(width: 120, height: 40)
        #expect(frame.contains("count") && frame.contains("mode"), "\(frame)")
        // The session map is the last word of each row; the two pins stand before it.
        #expect(pinned(row(0, in: frame), count: 2) == ["0", "\"idle\""], "\(frame)")
        #expect(pinned(row(3, in: frame), count: 2) == ["6", "\"idle\""], "\(frame)")
        #expect(pinned(row(4, in: frame), count: 2) == ["2", "\"busy\""], "\(frame)")
        #expect(pinned(row(10, in: frame), count: 2) == ["?", "?"], "the state after the row is unknown: \(frame)")
        #expect(pinned(row(11, in: frame), count: 2) == ["20", "—"], "the snapshot has no /mode: \(frame)")

        // w on a pinned node unpins it; the file follows.
        app.handle(.character("w"))
        #expect(app.model.pinnedPointers == ["/count"])
        #expect(file.load() == .board(PinBoard(apps: ["counter": ["/count"]])))
    }

    @Test("pins are per app: another app's session shows none, a new timeline of the same app shows them again")
    func perApp() throws {
        let directory = ValueFixtures.temporaryConfigDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = PinFile(environment: ["XDG_CONFIG_HOME": directory.path])
        try file.save(PinBoard(apps: ["counter": ["/count"], "todo": ["/filter"]]))
        let todo = TimelineApp(dataSource: Fixtures.todoSource(), actions: RecordingActions(), initialSession: "s-todo",
                               environment: [:], clock: { 0 }, pinFile: file)
        _ = todo.renderOnce(width: 120, height: 40)
        #expect(todo.model.pinnedPointers == ["/filter"])
        #expect(todo.waitForCommands(timeout: TestTime.seconds(10)))
        #expect(todo.renderOnce(width: 120, height: 40).contains("filter"))
        let counter = TimelineApp(dataSource: ValueFixtures.counterSource(), actions: RecordingActions(),
                                  initialSession: "s-count", environment: [:], clock: { 0 }, pinFile: file)
        _ = counter.renderOnce(width: 120, height: 40)
        #expect(counter.model.pinnedPointers == ["/count"])
    }

    @Test("values are read off the UI thread: rows show · until they arrive, and keys keep answering")
    func placeholdersUntilRead() throws {
        let source = GatedValuesSource(ValueFixtures.counterSource())
        defer { source.open() }
        let directory = ValueFixtures.temporaryConfigDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = PinFile(environment: ["XDG_CONFIG_HOME": directory.path])
        try file.save(PinBoard(apps: ["counter": ["/count"]]))
        let app = TimelineApp(dataSource: source, actions: RecordingActions(), initialSession: "s-count",
                              environment: [:], clock: { 0 }, pinFile: file)
        let waiting = app.renderOnce(width: 120, height: 40)
        #expect(pinned(row(3, in: waiting), count: 1) == ["·"], "\(waiting)")
        for _ in 0..<5 { app.handle(.down) }
        #expect(app.model.cursor == 5, "keys answer while the values are read")
        #expect(pinned(row(5, in: app.renderOnce(width: 120, height: 40)), count: 1) == ["·"])
        source.open()
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        let read = app.renderOnce(width: 120, height: 40)
        #expect(pinned(row(5, in: read), count: 1) == ["5"], "\(read)")
    }

    @Test("the cache keeps the values read around the rows on screen, within its limit")
    func cacheLimit() {
        var state = PinnedValuesState(session: "s", pointers: ["/n"])
        let request = state.request(visible: Array(0..<3_000))
        #expect(request?.indices.count == 3_000)
        #expect(state.request(visible: Array(0..<3_000)) == nil, "asked already")
        state.receive(request!, values: (0..<3_000).map { [.value(.int(Int64($0)))] }, around: 2_900)
        #expect(state.values.count <= PinnedValuesState.cacheLimit)
        #expect(state.values[2_900] == [.value(.int(2_900))], "rows near the cursor are kept")
        #expect(state.values[0] == nil)
    }

    @Test("the README's capture of pinned columns is what the renderer draws for the same fixture")
    func readmeCapture() throws {
        let directory = ValueFixtures.temporaryConfigDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = PinFile(environment: ["XDG_CONFIG_HOME": directory.path])
        try file.save(PinBoard(apps: ["counter": ["/count", "/mode"]]))
        let app = TimelineApp(dataSource: ValueFixtures.counterSource(), actions: RecordingActions(),
                              initialSession: "s-count", environment: [:], clock: { 0 }, pinFile: file)
        _ = app.renderOnce(width: 80, height: 30)
        app.handle(.character("M"))  // without the session map
        _ = app.renderOnce(width: 80, height: 30)
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        let lines = app.renderOnce(width: 80, height: 30).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        let heading = try #require(lines.firstIndex { $0.contains("label") && $0.contains("count") })
        let shown = Array(lines[heading...(heading + 12)])
        let readme = try ValueFixtures.readmeBlock(after: "<!-- pinned watches capture -->")
        #expect(shown == readme, "rendered:\n\(shown.joined(separator: "\n"))")
    }
}

@Suite("Pinned watches: the footer and a narrow timeline")
struct PinnedWatchesFooterTests {
    @Test("the State tab's footer offers w pin on a node, w unpin on a pinned one; a pin that does not fit says so")
    func footerAndRoom() throws {
        let directory = ValueFixtures.temporaryConfigDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = TimelineApp(dataSource: ValueFixtures.counterSource(), actions: RecordingActions(),
                              initialSession: "s-count", environment: [:], clock: { 0 },
                              pinFile: PinFile(environment: ["XDG_CONFIG_HOME": directory.path]))
        try HistoryPlotTests.onNode("/count", at: 8, in: app, width: 160, height: 40)
        let footer = { app.renderFrame(width: 160, height: 40).lines[39] }
        #expect(footer().contains("w pin"), "\(footer())")
        app.handle(.character("w"))
        #expect(footer().contains("w unpin"), "\(footer())")
        // At 80 columns (with the session map) three pins fit; the fourth is kept but not shown, and the status says so.
        var board = app.model.pinBoard
        board.toggle("/a", for: "counter")
        board.toggle("/b", for: "counter")
        try PinFile(environment: ["XDG_CONFIG_HOME": directory.path]).save(board)
        let crowded = TimelineApp(dataSource: ValueFixtures.counterSource(), actions: RecordingActions(),
                                  initialSession: "s-count", environment: [:], clock: { 0 },
                                  pinFile: PinFile(environment: ["XDG_CONFIG_HOME": directory.path]))
        try HistoryPlotTests.onNode("/mode", at: 8, in: crowded, width: 80, height: 24)
        crowded.handle(.character("w"))
        #expect(crowded.model.pinnedPointers == ["/count", "/a", "/b", "/mode"])
        #expect(crowded.model.status?.text.contains("only 3 of 4 pins fit beside the rows") == true,
                "\(crowded.model.status?.text ?? "")")
    }
}
