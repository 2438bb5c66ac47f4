import BenchKit
import Foundation
import RewindSessionFile
import RewindTUI
import RewindWire

/// The terminal timeline: rendering a 200×60 frame into its screen model, and opening a long session to its
/// first frame.
enum TUIBenchmarks {
    /// Times opening `session` (as `rewind open SESSION` does: a new source and app) to its first 200×60 frame.
    private static func openToFirstFrame(_ session: RecordedSession, _ context: BenchContext) throws -> Samples {
        var frameText = ""
        let open = Sampler.collect(context.pick(full: SamplingPlan(minSamples: 7, minSeconds: 1),
                                                quick: SamplingPlan(minSamples: 3, minSeconds: 0.1))) {
            let begin = MonotonicClock.nanoseconds()
            let fileSource = SessionTimelineSource(store: session.store, daemon: nil, only: session.id)
            let fileApp = TimelineApp(dataSource: fileSource, actions: NoTimelineActions(),
                                      initialSession: session.id.rawValue, environment: ["TERM": "xterm-256color"])
            frameText = fileApp.renderFrame(width: 200, height: 60).text
            let elapsed = Double(MonotonicClock.nanoseconds() &- begin)
            // The session map, computed off the UI thread after the first frame, is let finish outside the timing, so
            // that it does not run into the next sample's open.
            _ = fileApp.waitForCommands(timeout: 60)
            return elapsed
        }
        guard frameText.contains("touch") else {
            throw BenchFailure("the opened session's first frame shows no events:\n\(frameText)")
        }
        return open
    }

    static func run(_ context: BenchContext, session: RecordedSession) throws -> AreaReport {
        // An in-memory session: 10,000 events on a ≈ 10 kB state.
        let eventCount = context.pick(full: 10_000, quick: 2_000)
        context.progress("tui: building an in-memory session of \(eventCount) events")
        let source = InMemoryTimelineDataSource(header: TimelineHeader())
        var state = try JSONValueEncoder().encode(BenchState.sized(10_000))
        let start = Date().timeIntervalSince1970
        source.addSession(id: "bench-tui", appName: "bench", instance: "bench:1", startedAt: start,
                          status: .live, initialState: state)
        let items = BenchState.sized(10_000).itemCount
        for index in 1...eventCount {
            let item = index % items
            let pointer = try JSONPointer("/sections/\(item / BenchState.sectionSize)/items/"
                + "\(item % BenchState.sectionSize)/value")
            let patch = JSONPatch([.replace(path: pointer, value: .int(Int64(index)))])
            try patch.apply(to: &state)
            try source.append(
                session: "bench-tui", time: start + Double(index) * 0.01, kind: .action, label: "touch",
                action: ["touch": ["item": .int(Int64(item)), "value": .int(Int64(index))]], patch: patch,
                reducerMicros: 2, appSeq: index, stateAfter: state)
        }
        let app = TimelineApp(dataSource: source, actions: NoTimelineActions(), initialSession: "bench-tui",
                              environment: ["TERM": "xterm-256color"])
        let first = app.renderFrame(width: 200, height: 60)
        guard first.text.contains("touch") else {
            throw BenchFailure("the timeline frame shows no events:\n\(first.text)")
        }
        let plan = context.pick(full: SamplingPlan(minSamples: 2_000, minSeconds: 2, maxSeconds: 20),
                                quick: SamplingPlan(minSamples: 200, minSeconds: 0.2, maxSeconds: 2))
        context.progress("tui: rendering frames")
        let steady = Sampler.time(plan) { _ = app.renderFrame(width: 200, height: 60) }
        var upward = true
        var moves = 0
        let moving = Sampler.collect(plan) {
            app.handle(upward ? .up : .down)
            moves += 1
            if moves % 5_000 == 0 { upward.toggle() }
            let begin = MonotonicClock.nanoseconds()
            _ = app.renderFrame(width: 200, height: 60)
            return Double(MonotonicClock.nanoseconds() &- begin)
        }

        // Opening the long session (as `rewind open SESSION` does) to its first frame.
        let events = Quantity.grouped(Double(session.events))
        context.progress("tui: opening the \(events)-event session")
        let open = try openToFirstFrame(session, context)
        // The same with the app's outbox coalescing now and then: a `dropped` range every 522 events (1,915 in a
        // million), each a stretch of unknown state the timeline marks.
        let rangeEvery = 522
        context.progress("tui: recording a \(events)-event session with a dropped range every \(rangeEvery) events")
        let ranged = try RecordedSession.build(events: session.events, droppedRangeEvery: rangeEvery)
        defer { ranged.remove() }
        let ranges = (session.events - 4) / rangeEvery
        let openRanged = try openToFirstFrame(ranged, context)
        // Baseline: reading every row of the session (a timeline that loads everything before showing it).
        context.progress("tui: baseline, reading every row")
        let reader = try session.store.openSession(session.id)
        let loadStart = MonotonicClock.nanoseconds()
        var loaded = 0
        var next: Int64 = 1
        while next <= Int64(session.events) {
            let last = min(Int64(session.events), next + 49_999)
            loaded += try reader.events(next...last).count
            next = last + 1
        }
        let loadAll = Double(MonotonicClock.nanoseconds() &- loadStart)
        guard loaded == session.events else { throw BenchFailure("read \(loaded) rows of \(session.events)") }

        // The stats view (`S`) on the long session: its first frame (the view open, counting off the UI thread),
        // then the frame with the whole table (every event counted: one SQL scan).
        context.progress("tui: the stats view of the \(events)-event session")
        var statsText = ""
        var statsFirst: [Double] = []
        let statsTable = Sampler.collect(context.pick(full: SamplingPlan(minSamples: 5, minSeconds: 1),
                                                      quick: SamplingPlan(minSamples: 2, minSeconds: 0.1))) {
            let statsSource = SessionTimelineSource(store: session.store, daemon: nil, only: session.id)
            let statsApp = TimelineApp(dataSource: statsSource, actions: NoTimelineActions(),
                                       initialSession: session.id.rawValue, environment: ["TERM": "xterm-256color"])
            _ = statsApp.renderFrame(width: 200, height: 60)
            let begin = MonotonicClock.nanoseconds()
            statsApp.handle(.character("S"))
            _ = statsApp.renderFrame(width: 200, height: 60)
            statsFirst.append(Double(MonotonicClock.nanoseconds() &- begin))
            _ = statsApp.waitForCommands(timeout: 60)
            statsText = statsApp.renderFrame(width: 200, height: 60).text
            return Double(MonotonicClock.nanoseconds() &- begin)
        }
        guard statsText.contains("▼COUNT"), statsText.contains("touch") else {
            throw BenchFailure("the stats view shows no table:\n\(statsText)")
        }
        let statsOpen = Samples(statsFirst)

        // The session map (`M`, on by default) of the session with dropped ranges: on a new source and app whose first
        // frame is on screen with the map hidden, `M` and the frames until the map is computed off the UI thread (one
        // narrow SQL pass) and drawn; then its per-frame update (the strip redrawn from the computed map, rescaled as
        // if the session had grown since: the most a frame does).
        context.progress("tui: the session map of the \(events)-event session with dropped ranges")
        var mapModel: TimelineModel?
        var mapKeyFrame: [Double] = []
        let mapFirst = Sampler.collect(context.pick(full: SamplingPlan(minSamples: 5, minSeconds: 1),
                                                    quick: SamplingPlan(minSamples: 2, minSeconds: 0.1))) {
            let mapSource = SessionTimelineSource(store: ranged.store, daemon: nil, only: ranged.id)
            let mapApp = TimelineApp(dataSource: mapSource, actions: NoTimelineActions(),
                                     initialSession: ranged.id.rawValue, environment: ["TERM": "xterm-256color"])
            mapApp.handle(.character("M"))  // hidden while the session opens
            _ = mapApp.renderFrame(width: 200, height: 60)
            let begin = MonotonicClock.nanoseconds()
            mapApp.handle(.character("M"))
            _ = mapApp.renderFrame(width: 200, height: 60)
            mapKeyFrame.append(Double(MonotonicClock.nanoseconds() &- begin))
            _ = mapApp.waitForCommands(timeout: 60)
            _ = mapApp.renderFrame(width: 200, height: 60)
            mapModel = mapApp.model
            return Double(MonotonicClock.nanoseconds() &- begin)
        }
        let mapKey = Samples(mapKeyFrame)
        guard var grown = mapModel, let mapped = grown.map?.mapped,
              mapped.buckets.contains(where: { $0.contains(.dropped) }) else {
            throw BenchFailure("the session map marks no dropped range: \(String(describing: mapModel?.map))")
        }
        if let position = grown.selectedSessionPosition { grown.sessions[position].eventCount += 1_000 }
        let strip = Rect(row: grown.layout.timeline.row + 2, column: grown.layout.timeline.right - SessionMapView.width,
                         width: SessionMapView.width, height: grown.layout.timelineRows)
        var mapBuffer = ScreenBuffer(width: 200, height: 60)
        let mapFrame = Sampler.time(context.pick(full: SamplingPlan(minSamples: 2_000, minSeconds: 1, maxSeconds: 10),
                                                 quick: SamplingPlan(minSamples: 200, minSeconds: 0.1, maxSeconds: 1))) {
            SessionMapView(model: grown).render(into: &mapBuffer, rect: strip)
        }

        // The chart (`C`) of the long session: on a new source and app whose first frame is drawn (and its session
        // map computed, outside the timing), `C` and the next frame (timed), then waiting for the chart (computed off
        // the UI thread: an aggregate query per slice) and the frame showing it (timed from the key); then its
        // per-frame update (the band redrawn from the computed slices, rescaled as if the session had grown since).
        context.progress("tui: the chart of the \(events)-event session")
        var chartModel: TimelineModel?
        var chartKeyFrame: [Double] = []
        var chartFirstBars: [Double] = []
        let chartFirst = Sampler.collect(context.pick(full: SamplingPlan(minSamples: 5, minSeconds: 1),
                                                      quick: SamplingPlan(minSamples: 2, minSeconds: 0.1))) {
            let chartSource = SessionTimelineSource(store: session.store, daemon: nil, only: session.id)
            let chartApp = TimelineApp(dataSource: chartSource, actions: NoTimelineActions(),
                                       initialSession: session.id.rawValue, environment: ["TERM": "xterm-256color"])
            _ = chartApp.renderFrame(width: 200, height: 60)
            _ = chartApp.waitForCommands(timeout: 60)  // the session map, outside the timing
            let begin = MonotonicClock.nanoseconds()
            chartApp.handle(.character("C"))
            _ = chartApp.renderFrame(width: 200, height: 60)
            chartKeyFrame.append(Double(MonotonicClock.nanoseconds() &- begin))
            // Frames until the first slices are drawn (the chart fills in from the left as they come).
            let deadline = MonotonicClock.nanoseconds() &+ 60_000_000_000
            while chartApp.model.chart?.charted == nil && MonotonicClock.nanoseconds() < deadline {
                usleep(500)
                _ = chartApp.renderFrame(width: 200, height: 60)
            }
            chartFirstBars.append(Double(MonotonicClock.nanoseconds() &- begin))
            _ = chartApp.waitForCommands(timeout: 60)
            _ = chartApp.renderFrame(width: 200, height: 60)
            chartModel = chartApp.model
            return Double(MonotonicClock.nanoseconds() &- begin)
        }
        let chartKey = Samples(chartKeyFrame)
        let chartBars = Samples(chartFirstBars)
        guard var grownChart = chartModel, let charted = grownChart.chart?.charted,
              charted.buckets.reduce(0, { $0 + $1.events }) == Int64(session.events) else {
            throw BenchFailure("the chart does not count every event: \(String(describing: chartModel?.chart))")
        }
        if let position = grownChart.selectedSessionPosition { grownChart.sessions[position].eventCount += 1_000 }
        let band = grownChart.layout.chart
        var chartBuffer = ScreenBuffer(width: 200, height: 60)
        let chartFrame = Sampler.time(context.pick(full: SamplingPlan(minSamples: 2_000, minSeconds: 1, maxSeconds: 10),
                                                   quick: SamplingPlan(minSamples: 200, minSeconds: 0.1, maxSeconds: 1))) {
            SessionChartView(model: grownChart).render(into: &chartBuffer, rect: band)
        }

        context.progress("tui: filter as you type, the value plot and a pinned watch on the \(events)-event sessions")
        let views = try measureViews(session, ranged: ranged, context)
        let filterKey = Samples(views.filterKeyFrames)
        let filterShown = Samples(views.filterShown)
        let plotKey = Samples(views.plotKeyFrames)
        let plotShown = Samples(views.plotShown)
        let plotFrames = Samples(views.plotFrames)
        let pinsShown = Samples(views.pinsShown)
        let pinnedFrames = Samples(views.pinnedFrames)

        let twoMillis = Target.atMost(nanoseconds: 2_000_000)
        let rows = [
            ReportRow(
                "render a 200×60 frame after moving the selection", .nanoseconds(moving.median),
                detail: "p99 \(Quantity.duration(moving.p99)), n = \(Quantity.grouped(Double(moving.count)))",
                target: twoMillis),
            ReportRow(
                "render a 200×60 frame, nothing changed", .nanoseconds(steady.median),
                detail: "p99 \(Quantity.duration(steady.p99))", target: twoMillis),
            ReportRow(
                "open a \(events)-event session to its first 200×60 frame", .nanoseconds(open.median),
                detail: "max \(Quantity.duration(open.maximum)) of \(open.count)",
                target: .atMost(nanoseconds: 500_000_000),
                baseline: "reading every row first: \(Quantity.duration(loadAll))",
                ratio: "\(Quantity.multiple(loadAll / open.median)) faster"),
            ReportRow(
                "open a \(events)-event session with \(Quantity.grouped(Double(ranges))) dropped ranges to its first "
                    + "200×60 frame", .nanoseconds(openRanged.median),
                detail: "max \(Quantity.duration(openRanged.maximum)) of \(openRanged.count)",
                target: .atMost(nanoseconds: 500_000_000),
                baseline: "the same session without them: \(Quantity.duration(open.median))",
                ratio: "\(Quantity.multiple(openRanged.median / open.median)) the time"),
            ReportRow(
                "stats view (S) on the \(events)-event session: its first 200×60 frame", .nanoseconds(statsOpen.median),
                detail: "max \(Quantity.duration(statsOpen.maximum)) of \(statsOpen.count); the table is counted off "
                    + "the UI thread meanwhile", target: .atMost(nanoseconds: 300_000_000)),
            ReportRow(
                "stats view (S) on the \(events)-event session: every event counted, the table on screen",
                .nanoseconds(statsTable.median),
                detail: "max \(Quantity.duration(statsTable.maximum)) of \(statsTable.count); SQL scans of the "
                    + "labels (`SessionReader.labelTallies`) sharing the range among the cores, the rankings of single "
                    + "events (Tab) counted in the same pass",
                target: .atMost(nanoseconds: 300_000_000),
                baseline: "reading every row: \(Quantity.duration(loadAll))",
                ratio: "\(Quantity.multiple(loadAll / statsTable.median)) faster"),
            ReportRow(
                "session map (M) on the \(events)-event session with \(Quantity.grouped(Double(ranges))) dropped "
                    + "ranges: the 200×60 frame after M", .nanoseconds(mapKey.median),
                detail: "max \(Quantity.duration(mapKey.maximum)) of \(mapKey.count); the map is computed off the UI "
                    + "thread meanwhile", target: twoMillis),
            ReportRow(
                "session map (M) on the \(events)-event session with \(Quantity.grouped(Double(ranges))) dropped "
                    + "ranges: every event mapped, the map on screen", .nanoseconds(mapFirst.median),
                detail: "max \(Quantity.duration(mapFirst.maximum)) of \(mapFirst.count); one SQL query through the "
                    + "partial indexes of the rarer rows (`SessionReader.sessionMap`)",
                target: .atMost(nanoseconds: 300_000_000),
                baseline: "reading every row: \(Quantity.duration(loadAll))",
                ratio: "\(Quantity.multiple(loadAll / mapFirst.median)) faster"),
            ReportRow(
                "session map (M): its per-frame update (the strip redrawn, rescaled to a grown session)",
                .nanoseconds(mapFrame.median), detail: "p99 \(Quantity.duration(mapFrame.p99))", target: twoMillis),
            ReportRow(
                "chart (C) on the \(events)-event session: the 200×60 frame after C", .nanoseconds(chartKey.median),
                detail: "max \(Quantity.duration(chartKey.maximum)) of \(chartKey.count); the chart is computed off "
                    + "the UI thread meanwhile", target: twoMillis),
            ReportRow(
                "chart (C) on the \(events)-event session: its first slices on screen", .nanoseconds(chartBars.median),
                detail: "max \(Quantity.duration(chartBars.maximum)) of \(chartBars.count); the frames after C until "
                    + "the chart thread's first report (one slice) is drawn", target: .atMost(nanoseconds: 300_000_000)),
            ReportRow(
                "chart (C) on the \(events)-event session: every event charted, the chart on screen",
                .nanoseconds(chartFirst.median),
                detail: "max \(Quantity.duration(chartFirst.maximum)) of \(chartFirst.count); an aggregate query per "
                    + "slice (`SessionReader.sessionChart`), the slices shared among the cores, the chart filling in "
                    + "meanwhile",
                target: .atMost(nanoseconds: 300_000_000),  // issue 33's bound for every view, as the map's and stats
                baseline: "reading every row: \(Quantity.duration(loadAll))",
                ratio: "\(Quantity.multiple(loadAll / chartFirst.median)) faster"),
            ReportRow(
                "chart (C): its per-frame update (the band redrawn, rescaled to a grown session)",
                .nanoseconds(chartFrame.median), detail: "p99 \(Quantity.duration(chartFrame.p99))", target: twoMillis),
            ReportRow(
                "filter as you type (`/dropped`) on the \(events)-event session with dropped ranges: the frame after "
                    + "each key", .nanoseconds(filterKey.median),
                detail: "p99 \(Quantity.duration(filterKey.p99)), n = \(filterKey.count)", target: twoMillis),
            ReportRow(
                "filter as you type: from the last key to the matching rows alone on screen",
                .nanoseconds(filterShown.median),
                detail: "max \(Quantity.duration(filterShown.maximum)) of \(filterShown.count); the preview waits "
                    + "\(Int(FilterPreview.debounce * 1_000)) ms for the typing to pause, then the rows come from the "
                    + "label index off the UI thread", target: .atMost(nanoseconds: 300_000_000)),
            ReportRow(
                "value plot (b) of `\(watchedPointer)` at event \(Quantity.grouped(Double(session.events / 2))): the "
                    + "frame after b, the selection moved to the value's newest change", .nanoseconds(plotKey.median),
                detail: "max \(Quantity.duration(plotKey.maximum)) of \(plotKey.count); the newest changes read on "
                    + "the UI thread, the state at the newest rebuilt for the detail pane (a seek: its target is the "
                    + "seek's), the rest listed and plotted off the UI thread meanwhile",
                target: .atMost(nanoseconds: 20_000_000)),
            ReportRow(
                "value plot: its per-frame update (a 200×60 frame with the plot on screen)",
                .nanoseconds(plotFrames.median), detail: "p99 \(Quantity.duration(plotFrames.p99))", target: twoMillis),
            ReportRow(
                "value plot (b): from b to the plot of every change on screen", .nanoseconds(plotShown.median),
                detail: "max \(Quantity.duration(plotShown.maximum)) of \(plotShown.count); the path index's "
                    + "changes, then the value after each (`SessionReader.values(at:after:)`)",
                target: .atMost(nanoseconds: 300_000_000)),
            ReportRow(
                "pinned watch (w) of `\(watchedPointer)`: from a jump of the selection (`:`) to every row on screen "
                    + "showing its value", .nanoseconds(pinsShown.median),
                detail: "max \(Quantity.duration(pinsShown.maximum)) of \(pinsShown.count); read off the UI thread "
                    + "for the rows on screen", target: .atMost(nanoseconds: 300_000_000)),
            ReportRow(
                "pinned watch: a 200×60 frame after moving the selection, the column beside the rows",
                .nanoseconds(pinnedFrames.median),
                detail: "p99 \(Quantity.duration(pinnedFrames.p99)), n = \(pinnedFrames.count)", target: twoMillis),
        ]
        return AreaReport(
            title: "TUI",
            method: """
                `TimelineApp.renderFrame(width: 200, height: 60)` renders the whole screen (header, sessions, \
                timeline rows, detail pane with the state tree and diff) into its in-memory screen model — what the \
                ncurses painter then copies to the terminal. Frames: an `InMemoryTimelineDataSource` session of \
                \(Quantity.grouped(Double(eventCount))) events on a ≈ 10 kB state; "after moving the selection" \
                feeds ↑/↓ through `handle(_:)` before each timed frame, so the detail pane is rebuilt for another \
                event. Open: a `SessionTimelineSource` over the seek benchmark's \(events)-event session file and \
                a new `TimelineApp` rendering its first frame, timed together from scratch each time (page cache \
                warm; the session map it starts computing off the UI thread is let finish after the timing). Baseline: reading every row of that session through `SessionReader.events`. The same open of \
                a session of as many events in which the app's outbox coalesced every \(rangeEvery) events (a \
                `dropped` row, two actions without a patch, a `coalesced` snapshot), against the plain one. Stats \
                view: on that session's first frame, `S` through `handle(_:)` and the next frame (timed), then \
                waiting for the table and rendering it (timed from the key), each time on a new source and app. \
                Session map: a new source and app on the session with dropped ranges, its first frame drawn with \
                the map hidden, then `M` and the next frame (timed), then waiting for the map (computed off the UI \
                thread) and the frame showing it (timed from the key); its per-frame update is \
                `SessionMapView.render` alone, on a model whose session grew by 1,000 events since the map was \
                computed (each row gathers the old buckets under it). Chart: a new source and app on the plain \
                session, its first frame drawn and its session map computed, then `C` and the next frame (timed), \
                frames until its first slices show (timed from the key: the chart thread reports one slice first, \
                then a few at a time), then waiting for the whole chart and the frame showing it (timed from the \
                key); its per-frame update is `SessionChartView.render` alone, on a model whose session grew by \
                1,000 events since the chart was computed (each column merges the old slices under it). Filter as \
                you type: a new source and app on the session with dropped ranges, `/` and the seven keys of \
                `dropped` each followed by a frame (timed), then frames until the rows of the dropped ranges alone \
                are on screen (timed from the last key). Value plot: a new source and app on the plain session, the \
                selection moved to its middle event, the State tab's cursor put on `\(watchedPointer)` (expanding \
                its parents), then `b` and the next frame (timed), then frames until the plot is drawn (timed from \
                the key). Pinned watch: that value pinned for the session's app in a pins file, a new source and \
                app, then `:` to the middle event and frames until every row on screen shows its value (timed from \
                the `:`), then frames after ↑/↓ (timed).
                """,
            rows: rows)
    }
}
