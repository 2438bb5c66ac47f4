import Foundation
import RewindSessionFile
import RewindTUI
import RewindWire
import Testing
import RewindTestSupport

/// Issue 33's charts (`C`): state size, action rate, reducer time and patch size over the session, one column per
/// slice under the timeline's rows, computed off the UI thread; the selected row's slice marked (`▲`), ← → and a
/// click moving the selection by slices.
@Suite("The charts under the timeline")
struct SessionChartTests {
    /// The session's id.
    static let session = "20261130-091500-cart-3f9a1c"

    /// 240 `cart/add` actions, one every 100 ms but a burst of 60 (events 121–180) 10 ms apart; each adds an item, so
    /// the state grows; reducers take 20–26 µs but event 200's takes 4.5 ms; event 90's patch carries a 3,000-byte
    /// note. Deterministic (the README's capture renders it).
    static func source(status: TimelineSessionStatus = .ended, count: Int = 240) -> InMemoryTimelineDataSource {
        let source = InMemoryTimelineDataSource()
        source.addSession(id: session, appName: "cart", startedAt: Fixtures.start, status: status,
                          initialState: ["items": []])
        append(to: source, from: 1, through: count)
        return source
    }

    /// Appends events `first…last` as `source(status:count:)` describes them.
    static func append(to source: InMemoryTimelineDataSource, from first: Int, through last: Int) {
        for index in first...last {
            let time = index <= 120 ? Fixtures.start + Double(index) / 10
                : index <= 180 ? Fixtures.start + 12 + Double(index - 120) / 100
                : Fixtures.start + 12.6 + Double(index - 180) / 10
            var operations = [JSONPatchOperation.add(path: JSONPointer(tokens: ["items", "-"]),
                                                     value: .string("item \(index)"))]
            if index == 90 {
                operations.append(.add(path: JSONPointer(tokens: ["note"]), value: .string(String(repeating: "n", count: 3_000))))
            }
            _ = try? source.append(
                session: session, time: time, label: "cart/add", action: ["add": .string("item \(index)")],
                patch: JSONPatch(operations), reducerMicros: index == 200 ? 4_500 : Double(20 + index % 7),
                stateAfter: stateAfter(index))
        }
    }

    /// The state after event `index`.
    static func stateAfter(_ index: Int) -> JSONValue {
        var object: JSONObject = ["items": .array((1...max(1, index)).map { .string("item \($0)") })]
        if index >= 90 { object["note"] = .string(String(repeating: "n", count: 3_000)) }
        return .object(object)
    }

    /// An app over `source` on `session`, its chart shown with `C` pressed `presses` times and computed.
    static func app(_ source: InMemoryTimelineDataSource = source(), presses: Int, width: Int, height: Int,
                    clock: @escaping @Sendable () -> Double = { 0 }) -> TimelineApp {
        let app = TimelineApp(dataSource: source, actions: RecordingActions(), initialSession: session,
                              environment: [:], clock: clock)
        _ = app.renderFrame(width: width, height: height)
        for _ in 0..<presses { app.handle(.character("C")) }
        _ = app.renderFrame(width: width, height: height)
        _ = app.waitForCommands(timeout: TestTime.seconds(10))
        return app
    }

    /// The chart band's lines (nil when none is drawn) and the screen.
    static func band(_ app: TimelineApp, width: Int, height: Int) -> (lines: [String], buffer: ScreenBuffer)? {
        let buffer = app.renderFrame(width: width, height: height)
        let chart = app.model.layout.chart
        guard !chart.isEmpty else { return nil }
        let lines = (chart.row..<chart.bottom).map { row in
            String(buffer.line(row).dropFirst(chart.column).prefix(chart.width))
        }
        return (lines, buffer)
    }

    /// The column of `▲` on the band's axis row, relative to the plot's first column.
    static func markerColumn(_ lines: [String]) -> Int? {
        guard let axis = lines.last, let marker = axis.firstIndex(of: "▲") else { return nil }
        return axis.distance(from: axis.startIndex, to: marker) - SessionChartView.gutterWidth
    }

    @Test("C shows the chart and cycles state size → action rate → reducer time → patch size → off",
          arguments: [(80, 24), (120, 40), (200, 60)])
    func cycles(width: Int, height: Int) throws {
        let app = Self.app(presses: 0, width: width, height: height)
        let rowsBefore = app.model.layout.timelineRows
        #expect(Self.band(app, width: width, height: height) == nil)
        var titles: [String] = []
        for metric in ChartMetric.allCases {
            app.handle(.character("C"))
            #expect(app.model.chartMetric == metric)
            _ = app.renderFrame(width: width, height: height)
            #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
            let band = try #require(Self.band(app, width: width, height: height), "\(metric)")
            #expect(band.lines[0].contains(metric.title), "\(band.lines)")
            #expect(!band.lines[0].contains("charting…"), "computed: \(band.lines)")
            #expect(band.lines.dropFirst().dropLast().contains { $0.contains("█") }, "bars: \(band.lines)")
            #expect(app.model.layout.timelineRows < rowsBefore, "the band takes the timeline's rows")
            #expect(app.model.layout.timelineRows >= TimelineLayout.minimumRowsBesideChart)
            titles.append(metric.title)
        }
        app.handle(.character("C"))
        #expect(app.model.chartMetric == nil && app.model.status?.text.contains("chart hidden") == true)
        #expect(Self.band(app, width: width, height: height) == nil)
        app.handle(.down)  // the status line goes: the rows are as before the chart
        #expect(app.model.layout.timelineRows == rowsBefore)
        #expect(Set(titles).count == 4)
    }

    @Test("▲ marks the selected row's slice, and moves with the selection", arguments: [(80, 24), (120, 40), (200, 60)])
    func marksTheSelection(width: Int, height: Int) throws {
        let app = Self.app(presses: 1, width: width, height: height)
        var band = try #require(Self.band(app, width: width, height: height))
        let columns = app.model.layout.chart.width - SessionChartView.gutterWidth
        #expect(app.model.cursor == 0 && Self.markerColumn(band.lines) == 0, "\(band.lines)")
        app.handle(.end)
        band = try #require(Self.band(app, width: width, height: height))
        #expect(Self.markerColumn(band.lines) == columns - 1, "\(band.lines)")
        for _ in 0..<3 { app.handle(.up) }
        band = try #require(Self.band(app, width: width, height: height))
        #expect(Self.markerColumn(band.lines) == app.model.chartColumn(of: 237, columns: columns))
        // The caption names the selected slice's events.
        let first = app.model.firstIndex(ofChartColumn: app.model.chartColumn(of: 237, columns: columns),
                                         columns: columns)
        #expect(band.lines[0].contains("▲ #\(first)"), "\(band.lines[0])")
        // In monochrome the marker and the column's bold survive: the ▲ cell is bold.
        let chart = app.model.layout.chart
        let marker = band.buffer[chart.bottom - 1, chart.column + SessionChartView.gutterWidth
            + (Self.markerColumn(band.lines) ?? 0)]
        #expect(marker.character == "▲" && marker.style.bold)
    }

    @Test("← → move the selection to the first event of the previous / next slice", arguments: [(80, 24), (200, 60)])
    func arrowsMoveBySlices(width: Int, height: Int) throws {
        let app = Self.app(presses: 3, width: width, height: height)
        let columns = app.model.layout.chart.width - SessionChartView.gutterWidth
        app.handle(.right)
        let second = app.model.firstIndex(ofChartColumn: 1, columns: columns)
        #expect(app.model.cursor == second && second > 0)
        for _ in 0..<4 { app.handle(.right) }
        #expect(app.model.cursor == app.model.firstIndex(ofChartColumn: 5, columns: columns))
        let band = try #require(Self.band(app, width: width, height: height))
        #expect(Self.markerColumn(band.lines) == 5, "\(band.lines)")
        app.handle(.left)
        #expect(app.model.cursor == app.model.firstIndex(ofChartColumn: 4, columns: columns))
        app.handle(.end)
        app.handle(.right)  // at the last slice: stays
        #expect(app.model.cursor == 240)
        app.handle(.left)
        #expect(app.model.chartColumn(of: app.model.cursor, columns: columns) == columns - 2)
        // The selected row is on screen.
        #expect(app.model.cursor >= app.model.scrollTop && app.model.cursor <= app.model.lastVisibleIndex)
    }

    @Test("a click on the chart selects the first event of that slice")
    func click() throws {
        let app = Self.app(presses: 1, width: 120, height: 40)
        let chart = app.model.layout.chart
        let columns = chart.width - SessionChartView.gutterWidth
        let column = columns * 2 / 3
        app.handle(.mouse(MouseEvent(.press, row: chart.row + 2, column: chart.column + SessionChartView.gutterWidth + column)))
        #expect(app.model.cursor == app.model.firstIndex(ofChartColumn: column, columns: columns))
        #expect(app.model.cursor > 140)
        let band = try #require(Self.band(app, width: 120, height: 40))
        #expect(Self.markerColumn(band.lines) == column)
    }

    @Test("the bars are where the session's quantities are: the slow reducer, the burst, the large patch, the growth")
    func barsFollowTheSession() throws {
        let width = 120
        let height = 40
        let app = Self.app(presses: 3, width: width, height: height)  // reducer time
        let columns = app.model.layout.chart.width - SessionChartView.gutterWidth
        func tallest(_ app: TimelineApp) throws -> [Int] {
            let state = try #require(app.model.chart?.charted)
            let metric = try #require(app.model.chartMetric)
            let values = metric.values(of: SessionChartView.columnBuckets(state, count: 240, columns: columns),
                                       sessionStart: Fixtures.start).map { $0 ?? 0 }
            let peak = values.max() ?? 0
            return values.indices.filter { values[$0] == peak }
        }
        #expect(try tallest(app) == [app.model.chartColumn(of: 200, columns: columns)])
        var band = try #require(Self.band(app, width: width, height: height))
        #expect(band.lines[1].contains("4.5ms┤"), "the y-axis names the slowest: \(band.lines)")
        app.handle(.character("C"))  // patch size
        #expect(try tallest(app) == [app.model.chartColumn(of: 90, columns: columns)])
        app.handle(.character("C"))  // off
        app.handle(.character("C"))  // state size: grows to the end
        _ = app.renderFrame(width: width, height: height)
        #expect(try tallest(app).last == columns - 1)
        app.handle(.character("C"))  // action rate: the burst is ten times the rest
        let burst = try tallest(app)
        #expect(burst.allSatisfy { (120...181).contains(app.model.firstIndex(ofChartColumn: $0, columns: columns)) })
        band = try #require(Self.band(app, width: width, height: height))
        #expect(band.lines[1].contains("/s┤"), "\(band.lines)")
    }

    @Test("a growing session is charted again at a bounded rate; meanwhile the chart is rescaled")
    func liveGrowth() throws {
        let clock = ManualClock()
        let source = Self.source(status: .live, count: 100)
        let app = Self.app(source, presses: 1, width: 80, height: 24, clock: { clock.now })
        #expect(app.model.chart?.charted?.range == 0...100)
        Self.append(to: source, from: 101, through: 150)
        clock.now = 0.2
        _ = app.renderFrame(width: 80, height: 24)
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        #expect(app.model.chart?.charted?.range == 0...100, "not yet: within half a second of the last")
        let band = try #require(Self.band(app, width: 80, height: 24))
        #expect(Self.markerColumn(band.lines) == app.model.layout.chart.width - SessionChartView.gutterWidth - 1,
                "following: the last slice")
        clock.now = 0.8
        _ = app.renderFrame(width: 80, height: 24)
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        _ = app.renderFrame(width: 80, height: 24)
        #expect(app.model.chart?.charted?.range == 0...150)
    }

    @Test("the bounded rate: nothing changed, growth while computing or within the interval wait; a resize does not")
    func boundedRate() throws {
        var state = SessionChartState(session: "s")
        let first = try #require(state.request(count: 100, buckets: 60, now: 10))
        state.asked = first
        state.askedAt = 10
        state.computing = true
        #expect(state.request(count: 100, buckets: 60, now: 10.1) == nil)
        #expect(state.request(count: 150, buckets: 60, now: 11) == nil, "growth while computing")
        state.receive(first, chart: SessionChart(range: 0...100, buckets: 60), failure: nil)
        #expect(state.charted?.range == 0...100 && !state.computing)
        #expect(state.request(count: 150, buckets: 60, now: 10.3) == nil, "growth within the interval")
        #expect(state.request(count: 150, buckets: 60, now: 10.6)?.count == 150)
        #expect(state.request(count: 100, buckets: 72, now: 10.1)?.buckets == 72, "a resize at once")
        // A slow computation spaces the next ones out: three times as long as it took.
        state.receive(first, chart: SessionChart(range: 0...100, buckets: 60), failure: nil, seconds: 0.4)
        #expect(state.request(count: 150, buckets: 60, now: 11.1) == nil, "within 1.2 s of the last")
        #expect(state.request(count: 150, buckets: 60, now: 11.3)?.count == 150)
    }

    @Test("a chart computed for another width or count is rescaled: each column merges the slices of its events")
    func rescales() {
        var chart = SessionChart(range: 0...99, buckets: 10)
        for bucket in 0..<10 {
            chart.buckets[bucket].events = 10
            chart.buckets[bucket].actions = 10
            chart.buckets[bucket].patchBytesMax = Int64(bucket)
            chart.buckets[bucket].stateBytes = Int64(100 * bucket)
        }
        #expect(SessionChartView.columnBuckets(chart, count: 99, columns: 10) == chart.buckets)
        let narrower = SessionChartView.columnBuckets(chart, count: 99, columns: 5)
        #expect(narrower.map(\.events) == [20, 20, 20, 20, 20])
        #expect(narrower.map(\.patchBytesMax) == [1, 3, 5, 7, 9])
        #expect(narrower.map(\.stateBytes) == [100, 300, 500, 700, 900], "the later slice's state")
        let grown = SessionChartView.columnBuckets(chart, count: 199, columns: 10)
        #expect(grown[0].events == 20 && grown[4].events == 20)
        #expect(grown[5...].allSatisfy { $0 == SessionChart.Bucket() }, "events recorded since: nothing yet")
        #expect(SessionChartView.columnBuckets(nil, count: 99, columns: 3) == Array(repeating: SessionChart.Bucket(), count: 3))
    }

    @Test("bar heights: nothing for zero, at least an eighth above it, full for the peak")
    func eighths() {
        #expect(SessionChartView.eighths(0, peak: 10, rows: 4) == 0)
        #expect(SessionChartView.eighths(0.001, peak: 10, rows: 4) == 1)
        #expect(SessionChartView.eighths(10, peak: 10, rows: 4) == 32)
        #expect(SessionChartView.eighths(5, peak: 10, rows: 4) == 16)
        #expect(SessionChartView.eighths(.nan, peak: 10, rows: 4) == 0)
    }

    @Test("small and odd terminal sizes: every metric renders, ← → and clicks stay within the session")
    func smallSizes() throws {
        for (width, height) in [(40, 10), (40, 30), (41, 20), (60, 16), (121, 18), (47, 60)] {
            let app = Self.app(presses: 0, width: width, height: height)
            for _ in 0...ChartMetric.allCases.count {
                app.handle(.character("C"))
                for key in [Key.right, .right, .left, .end, .right, .home, .left] { app.handle(key) }
                let chart = app.model.layout.chart
                app.handle(.mouse(MouseEvent(.press, row: chart.bottom - 1, column: chart.right - 1)))
                app.handle(.mouse(MouseEvent(.press, row: chart.row + 1, column: chart.column)))
                _ = app.renderFrame(width: width, height: height)
                #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
                #expect((0...240).contains(app.model.cursor), "\(width)×\(height)")
                _ = app.renderFrame(width: width, height: height)
            }
        }
    }

    @Test("too low a timeline shows no chart, and C says why")
    func tooLow() {
        let app = Self.app(presses: 1, width: 80, height: 14)
        #expect(app.model.chartMetric == .stateSize && !app.model.showsChart)
        #expect(app.model.status?.isError == true && app.model.status?.text.contains("taller") == true)
    }
}
