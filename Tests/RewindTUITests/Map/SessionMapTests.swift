import Foundation
import RewindSessionFile
import RewindTUI
import RewindWire
import Testing
import RewindTestSupport

/// A clock the test moves by hand (the debounce and the map's bounded rate read it).
final class ManualClock: @unchecked Sendable {  // `now` guarded by `lock`
    private let lock = NSLock()
    private var value = 0.0

    var now: Double {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}

/// Issue 33's session map (`M`): the whole session beside the timeline's rows, computed off the UI thread.
@Suite("The session map beside the timeline")
struct SessionMapTests {
    /// 200 events of `tick`, an error at 60, a dropped range from 120 (its states unknown until the snapshot at
    /// 140), a jump at 180, and `tock` every 50th.
    static func source(status: TimelineSessionStatus = .ended) -> InMemoryTimelineDataSource {
        let source = InMemoryTimelineDataSource()
        source.addSession(id: "s-map", appName: "map", startedAt: Fixtures.start, status: status,
                          initialState: ["n": 0])
        append(to: source, from: 1, through: 200)
        return source
    }

    static func append(to source: InMemoryTimelineDataSource, from first: Int, through last: Int) {
        for index in first...last {
            let time = Fixtures.start + Double(index)
            let value: JSONValue = ["n": .int(Int64(index))]
            // As the daemon states it: unknown from the failed patch at 60 (the dropped row at 120 inside it), and
            // after the dropped row, until the snapshot at 140.
            let meaning: RowMeaning = (60...120).contains(index) ? .unknown(.patchFailed, cause: 60)
                : (121..<140).contains(index) ? .unknown(.dropped, cause: 120) : RowMeaning()
            switch index {
            case 60: _ = try? source.append(session: "s-map", time: time, kind: .error, label: "patch_failed",
                                            detail: "a patch did not apply", meaning: meaning)
            case 120: _ = try? source.append(session: "s-map", time: time, kind: .dropped, label: "dropped",
                                             detail: "the app's outbox was full", meaning: meaning)
            case 140: _ = try? source.append(session: "s-map", time: time, kind: .snapshot, label: "snapshot",
                                             stateAfter: value)
            case 180: _ = try? source.append(session: "s-map", time: time, kind: .jump, label: "jump", stateAfter: value)
            default:
                _ = try? source.append(session: "s-map", time: time, label: index % 50 == 0 ? "tock" : "tick",
                                       action: ["n": .int(Int64(index))],
                                       patch: index > 120 && index < 140 ? nil
                                           : JSONPatch([.replace(path: JSONPointer(tokens: ["n"]), value: .int(Int64(index)))]),
                                       stateAfter: value, meaning: meaning)
            }
        }
    }

    /// The two map columns of each timeline row on screen (nil where the map is not drawn).
    static func mapColumns(_ app: TimelineApp, width: Int, height: Int) -> [String] {
        let buffer = app.renderFrame(width: width, height: height)
        let layout = app.model.layout
        let body = layout.timeline.droppingTop(2)
        return (body.row..<body.bottom).map { row in
            String(buffer.lines[row].padding(toLength: width, withPad: " ", startingAt: 0)
                .dropFirst(body.right - SessionMapView.width).prefix(SessionMapView.width))
        }
    }

    @Test("the map marks the error, the dropped range, the unknown states and the jump where they are",
          arguments: [(80, 24), (120, 40), (200, 60)])
    func marksWhereTheyAre(width: Int, height: Int) throws {
        let app = TimelineApp(dataSource: Self.source(), actions: RecordingActions(), initialSession: "s-map",
                              environment: [:], clock: { 0 })
        _ = app.renderFrame(width: width, height: height)
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        let columns = Self.mapColumns(app, width: width, height: height)
        let rows = columns.count
        func row(of index: Int) -> Int { SessionMap.bucket(of: Int64(index), in: 0...200, buckets: rows) }
        #expect(columns[row(of: 60)].hasPrefix("E"), "error at 60: \(columns)")
        #expect(columns[row(of: 120)].hasPrefix("D"), "dropped at 120: \(columns)")
        #expect(columns[row(of: 130)].hasPrefix("░") || row(of: 130) == row(of: 120), "unknown 121–139: \(columns)")
        #expect(columns[row(of: 180)].hasPrefix("J"), "jump at 180: \(columns)")
        #expect(columns[row(of: 10)].hasPrefix(" "), "nothing at 10: \(columns)")
        // An ended session opens at its first row: the cursor (◀) and the window on screen (█) at the top.
        #expect(columns[0].hasSuffix("◀"), "\(columns)")
        #expect(columns.filter { $0.hasSuffix("·") }.count > rows / 2, "most of the session is off screen: \(columns)")
    }

    @Test("M hides and shows the map; the rows take its columns back")
    func toggles() throws {
        let app = TimelineApp(dataSource: Self.source(), actions: RecordingActions(), initialSession: "s-map",
                              environment: [:], clock: { 0 })
        _ = app.renderFrame(width: 80, height: 24)
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        #expect(Self.mapColumns(app, width: 80, height: 24).contains { $0.hasPrefix("E") })
        app.handle(.character("M"))
        #expect(app.model.status?.text.contains("map hidden") == true)
        #expect(!Self.mapColumns(app, width: 80, height: 24).contains { $0.contains("◀") || $0.hasPrefix("E") })
        app.handle(.character("M"))
        #expect(app.model.showsMap)
        #expect(Self.mapColumns(app, width: 80, height: 24).contains { $0.hasPrefix("E") })
    }

    @Test("a label search marks its matches (◆) on the map; the map follows the cursor")
    func searchMatches() throws {
        let app = TimelineApp(dataSource: Self.source(), actions: RecordingActions(), initialSession: "s-map",
                              environment: [:], clock: { 0 })
        for key in [Key.character("/")] + "tock".map(Key.character) + [.enter] { app.handle(key) }
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        _ = app.renderFrame(width: 120, height: 40)
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        app.handle(.escape)  // back to every row: the map keeps mapping the whole session
        for key in [Key.character("/")] + "tock".map(Key.character) + [.enter] { app.handle(key) }
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        _ = app.renderFrame(width: 120, height: 40)
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        let columns = Self.mapColumns(app, width: 120, height: 40)
        let rows = columns.count
        let cursorRow = SessionMap.bucket(of: Int64(app.model.cursor), in: 0...200, buckets: rows)
        for tock in [50, 100, 150, 200] {
            let row = SessionMap.bucket(of: Int64(tock), in: 0...200, buckets: rows)
            #expect(row == cursorRow ? columns[row].hasSuffix("◀") : columns[row].hasSuffix("◆"),
                    "tock at \(tock): \(columns)")
        }
        #expect(columns[SessionMap.bucket(of: 20, in: 0...200, buckets: rows)].hasSuffix("·"),
                "only the matching rows are on screen: \(columns)")
    }

    @Test("a click on the map goes to the first event of that slice")
    func clickOnTheMap() throws {
        let app = TimelineApp(dataSource: Self.source(), actions: RecordingActions(), initialSession: "s-map",
                              environment: [:], clock: { 0 })
        _ = app.renderFrame(width: 120, height: 40)
        let body = app.model.layout.timeline.droppingTop(2)
        let slice = body.height * 3 / 4
        app.handle(.mouse(MouseEvent(.press, row: body.row + slice, column: body.right - 1)))
        let expected = SessionMap.firstIndex(ofBucket: slice, in: 0...200, buckets: body.height)
        #expect(app.model.cursor == Int(expected), "slice \(slice) of \(body.height)")
        #expect(app.model.cursor > 100)
    }

    @Test("too narrow a timeline shows no map, and M says why")
    func tooNarrow() {
        let app = TimelineApp(dataSource: Self.source(), actions: RecordingActions(), initialSession: "s-map",
                              environment: [:], clock: { 0 })
        _ = app.renderFrame(width: 48, height: 24)
        #expect(!app.model.showsMap)
        app.handle(.character("M"))
        app.handle(.character("M"))
        #expect(app.model.status?.isError == true && app.model.status?.text.contains("needs a timeline") == true)
    }

    @Test("a growing session is mapped again, at most once a second; a new search only recomputes its matches")
    func boundedRate() throws {
        var state = SessionMapState(session: "s")
        let first = try #require(state.request(count: 100, buckets: 20, filter: nil, now: 10))
        #expect(first.kinds)
        state.asked = first
        state.askedAt = 10
        state.computing = true
        #expect(state.request(count: 100, buckets: 20, filter: nil, now: 10.1) == nil, "nothing changed")
        #expect(state.request(count: 150, buckets: 20, filter: nil, now: 10.5) == nil, "growth while computing")
        state.receive(first, map: SessionMap(range: 0...100, buckets: 20), failure: nil)
        #expect(state.request(count: 150, buckets: 20, filter: nil, now: 10.5) == nil, "growth within a second")
        #expect(state.request(count: 150, buckets: 20, filter: nil, now: 11.1)?.count == 150)
        #expect(state.request(count: 100, buckets: 25, filter: nil, now: 10.2)?.buckets == 25, "a resize at once")
        let filter = try TimelineLabelFilter(pattern: "tock")
        let search = try #require(state.request(count: 100, buckets: 20, filter: filter, now: 10.2))
        #expect(!search.kinds && search.filter == filter, "a search at once, its matches only")
    }

    @Test("a map computed for another height or count is rescaled: each row gathers the buckets of its events")
    func rescales() {
        var map = SessionMap(range: 0...99, buckets: 10)
        map.mark(.error, from: 55, through: 55)
        map.mark(.unknown, from: 70, through: 79)
        let same = SessionMapView.rowMarks(map, count: 99, rows: 10)
        #expect(same == map.buckets)
        let taller = SessionMapView.rowMarks(map, count: 99, rows: 20)
        let error = SessionMap.Marks.error
        #expect(taller[11].contains(error) && taller[10].contains(error) && !taller[9].contains(error))
        #expect(taller[14].contains(.unknown) && taller[15].contains(.unknown) && !taller[16].contains(.unknown))
        let grown = SessionMapView.rowMarks(map, count: 199, rows: 10)
        #expect(grown[2].contains(error) && grown[3].contains(SessionMap.Marks.unknown))
        #expect(grown[5...].allSatisfy { $0.isEmpty }, "events recorded since have no marks yet")
    }

    @Test("a live session's map takes in the events recorded since, at a bounded rate")
    func liveGrowth() throws {
        let clock = ManualClock()
        let source = Self.source(status: .live)
        let app = TimelineApp(dataSource: source, actions: RecordingActions(), initialSession: "s-map",
                              environment: [:], clock: { clock.now })
        _ = app.renderFrame(width: 80, height: 24)
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        _ = try source.append(session: "s-map", time: Fixtures.start + 500, kind: .error, label: "repeated")
        Self.append(to: source, from: 1, through: 1)  // one more tick
        clock.now = 0.5
        _ = app.renderFrame(width: 80, height: 24)
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        var columns = Self.mapColumns(app, width: 80, height: 24)
        #expect(app.model.map?.mapped?.range.upperBound == 200, "not yet: within a second of the last")
        clock.now = 1.5
        _ = app.renderFrame(width: 80, height: 24)
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        columns = Self.mapColumns(app, width: 80, height: 24)
        #expect(app.model.map?.mapped?.range.upperBound == 202)
        #expect(columns[columns.count - 1].hasPrefix("E"), "the new error at the bottom: \(columns)")
    }
}
