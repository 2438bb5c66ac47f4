import Foundation
import RewindSessionFile
import RewindTestSupport
import RewindTUI
import RewindWire
import Testing

/// The chart of a long session fills in from the left as its slices come (the chart thread asks for one slice first,
/// then a few at a time), its caption saying `charting…` until it is complete; a chart already shown is replaced only
/// by a complete one.
@Suite("The chart fills in as its slices come")
struct ProgressiveChartTests {
    /// A source over `SessionChartTests.source()` whose chart answers its first request at once and waits for `gate`
    /// to open before any other.
    final class GatedSource: TimelineDataSource, @unchecked Sendable {  // `requests` guarded by `lock`; the rest immutable
        let source: InMemoryTimelineDataSource
        let gate = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var requests = 0

        init(_ source: InMemoryTimelineDataSource) {
            self.source = source
        }

        var changeCounter: UInt64 { source.changeCounter }
        func header() -> TimelineHeader { source.header() }
        func sessions() -> [TimelineSession] { source.sessions() }
        func events(session: String, range: ClosedRange<Int>) throws -> [TimelineEvent] {
            try source.events(session: session, range: range)
        }
        func event(session: String, index: Int) throws -> TimelineEvent {
            try source.event(session: session, index: index)
        }
        func state(session: String, index: Int) throws -> JSONValue { try source.state(session: session, index: index) }
        func sessionChart(session: String, count: Int, buckets: Int, slices: Range<Int>,
                          progress: TimelineSearchProgress) throws -> SessionChart {
            let first = lock.withLock {
                requests += 1
                return requests == 1
            }
            if !first { gate.wait() }
            return try source.sessionChart(session: session, count: count, buckets: buckets, slices: slices,
                                           progress: progress)
        }
    }

    @Test("the first slice is drawn while the others are computed; the caption says charting… until the end")
    func fillsIn() throws {
        let source = GatedSource(SessionChartTests.source())
        let app = TimelineApp(dataSource: source, actions: RecordingActions(), initialSession: SessionChartTests.session,
                              environment: [:], clock: { 0 })
        _ = app.renderFrame(width: 80, height: 24)
        app.handle(.character("C"))
        // Poll for the first slice's report (the chart thread answers it at once).
        let deadline = Date(timeIntervalSinceNow: TestTime.seconds(10))
        var band = SessionChartTests.band(app, width: 80, height: 24)
        while app.model.chart?.charted == nil && Date() < deadline {
            usleep(2_000)
            band = SessionChartTests.band(app, width: 80, height: 24)
        }
        let partial = try #require(app.model.chart?.charted, "the first slice arrives")
        #expect(app.model.chart?.partial == true)
        #expect(partial.buckets[0].events > 0 && partial.buckets.dropFirst().allSatisfy { $0.events == 0 })
        let lines = try #require(band?.lines)
        #expect(lines[0].contains("charting…"), "\(lines)")
        for _ in 0..<200 { source.gate.signal() }  // every later request goes through
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        let complete = try #require(SessionChartTests.band(app, width: 80, height: 24))
        #expect(!complete.lines[0].contains("charting…"), "\(complete.lines)")
        #expect(app.model.chart?.partial == false)
        #expect(app.model.chart?.charted?.buckets.allSatisfy { $0.events > 0 } == true)
    }

    @Test("a partial report is not the end: the state keeps computing, and a stale one is ignored")
    func stateTakesPartialReports() throws {
        var state = SessionChartState(session: "s")
        let request = try #require(state.request(count: 100, buckets: 10, now: 0))
        state.asked = request
        state.computing = true
        var part = SessionChart(range: 0...100, buckets: 10)
        part.buckets[0].events = 10
        state.receive(request, chart: part, failure: nil, complete: false)
        #expect(state.charted == part && state.partial && state.computing)
        #expect(state.request(count: 100, buckets: 10, now: 5) == nil, "still computing")
        let stale = SessionChartState.Request(session: "s", count: 90, buckets: 10)
        state.receive(stale, chart: SessionChart(range: 0...90, buckets: 10), failure: nil, complete: false)
        #expect(state.charted == part)
        state.receive(request, chart: SessionChart(range: 0...100, buckets: 10), failure: nil, seconds: 0.1)
        #expect(!state.partial && !state.computing && state.lastSeconds == 0.1)
    }
}
