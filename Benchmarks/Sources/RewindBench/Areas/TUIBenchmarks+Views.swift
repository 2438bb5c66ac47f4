import BenchKit
import Foundation
import RewindSessionFile
import RewindTUI
import RewindWire

/// Issue 33's other views on the long sessions, driven through `TimelineApp.handle(_:)` as keys would: the `/` filter
/// as it is typed, a value's history plotted (`b`) and a pinned watch (`w`) beside the rows.
extension TUIBenchmarks {
    /// The value the plot and the pinned watch follow: changed by about one event in a hundred of the seek
    /// benchmark's session (the state history benchmark's value).
    static let watchedPointer = "/sections/0/items/0/value"

    /// What the views cost: the frames after each key, and the time from the key to what it asked for on screen.
    struct ViewSamples {
        /// Each frame after a key typed into the `/` prompt (the preview waits for the typing to pause).
        var filterKeyFrames: [Double] = []
        /// From the last key typed to the matching rows alone on screen (the preview's pause included).
        var filterShown: [Double] = []
        /// The frame after `b`.
        var plotKeyFrames: [Double] = []
        /// From `b` to the plot on screen.
        var plotShown: [Double] = []
        /// Frames with the plot on screen, nothing else changing.
        var plotFrames: [Double] = []
        /// From a jump of the selection (`:` and Enter) to every row on screen showing its pinned value.
        var pinsShown: [Double] = []
        /// Frames after moving the selection with a pinned watch beside the rows.
        var pinnedFrames: [Double] = []
    }

    /// A new source and app over `session` (its first frame drawn and its session map computed, outside any timing).
    private static func openedApp(_ session: RecordedSession, pinFile: PinFile? = nil) -> (TimelineApp, SessionTimelineSource) {
        let source = SessionTimelineSource(store: session.store, daemon: nil, only: session.id)
        let app = TimelineApp(dataSource: source, actions: NoTimelineActions(), initialSession: session.id.rawValue,
                              environment: ["TERM": "xterm-256color"], pinFile: pinFile)
        _ = app.renderFrame(width: 200, height: 60)
        _ = app.waitForCommands(timeout: 60)
        return (app, source)
    }

    /// Renders frames until `done` holds (at most 60 s); the frame's text then.
    private static func frames(of app: TimelineApp, until done: (TimelineModel) -> Bool) throws -> String {
        let deadline = MonotonicClock.nanoseconds() &+ 60_000_000_000
        while true {
            let text = app.renderFrame(width: 200, height: 60).text
            if done(app.model) { return text }
            guard MonotonicClock.nanoseconds() < deadline else {
                throw BenchFailure("a view did not come within 60 s:\n\(text)")
            }
            usleep(500)
        }
    }

    /// Types `text` into the app, one key at a time, with no frame between.
    private static func type(_ text: String, into app: TimelineApp) {
        for character in text { app.handle(.character(character)) }
    }

    /// Moves the selection to event `index` (`:` prompt), rendering the frame after Enter.
    private static func goTo(_ index: Int, in app: TimelineApp) {
        app.handle(.character(":"))
        type(String(index), into: app)
        app.handle(.enter)
        _ = app.renderFrame(width: 200, height: 60)
    }

    /// Puts the State tab's cursor on `pointer` (expanding its collapsed ancestors with Enter), the detail pane
    /// focused; throws when the tree never shows it.
    private static func selectNode(_ pointer: String, in app: TimelineApp, source: SessionTimelineSource) throws {
        app.handle(.character("3"))
        app.handle(.tab)
        let content = DetailContentCache(dataSource: source)
        for _ in 0..<8 {
            _ = app.renderFrame(width: 200, height: 60)
            let lines = content.content(for: app.model, now: Double(MonotonicClock.nanoseconds()) / 1e9).lines
            let paths: [String?] = lines.map { (line: DetailLine) -> String? in line.path }
            // The node itself, else its deepest ancestor shown (collapsed: Enter expands it).
            var target = paths.firstIndex(of: pointer)
            if target == nil {
                var deepest = -1
                for (position, path) in paths.enumerated() {
                    guard let path, pointer.hasPrefix(path + "/"), path.count > deepest else { continue }
                    deepest = path.count
                    target = position
                }
            }
            guard let target else { break }
            app.handle(.character("g"))
            for _ in 0..<target { app.handle(.character("j")) }
            if paths[target] == pointer { return }
            app.handle(.enter)
        }
        throw BenchFailure("the State tab never shows \(pointer)")
    }

    /// Times the `/` filter typed on `ranged` (the rows of `dropped` ranges), `b` on ``watchedPointer`` at the middle
    /// of `session`, and a pinned watch of it beside the rows after a jump of the selection there.
    static func measureViews(_ session: RecordedSession, ranged: RecordedSession, _ context: BenchContext) throws
        -> ViewSamples {
        var samples = ViewSamples()
        let plan = context.pick(full: SamplingPlan(minSamples: 5, minSeconds: 1),
                                quick: SamplingPlan(minSamples: 2, minSeconds: 0.1))
        let middle = session.events / 2

        // Filter as you type: `/dropped`, each key's frame, then the rows of the dropped ranges alone.
        var filterText = ""
        _ = Sampler.collect(plan) {
            let (app, _) = openedApp(ranged)
            app.handle(.character("/"))
            _ = app.renderFrame(width: 200, height: 60)
            var typed = MonotonicClock.nanoseconds()
            for character in "dropped" {
                typed = MonotonicClock.nanoseconds()
                app.handle(.character(character))
                _ = app.renderFrame(width: 200, height: 60)
                samples.filterKeyFrames.append(Double(MonotonicClock.nanoseconds() &- typed))
            }
            filterText = (try? frames(of: app) { model in
                model.hiding?.rows != nil && model.filtering == nil && model.filterPreview?.shownText == "dropped"
            }) ?? ""
            let shown = Double(MonotonicClock.nanoseconds() &- typed)
            samples.filterShown.append(shown)
            return shown
        }
        guard filterText.contains("dropped"), !filterText.contains(" touch ") else {
            throw BenchFailure("the typed filter does not show the dropped rows alone:\n\(filterText)")
        }

        // The value plot: `b` on the watched value at the middle event, then the plot of its changes.
        var plotText = ""
        _ = try Sampler.collect(plan) {
            let (app, source) = openedApp(session)
            goTo(middle, in: app)
            try selectNode(watchedPointer, in: app, source: source)
            _ = app.renderFrame(width: 200, height: 60)
            let begin = MonotonicClock.nanoseconds()
            app.handle(.character("b"))
            _ = app.renderFrame(width: 200, height: 60)
            samples.plotKeyFrames.append(Double(MonotonicClock.nanoseconds() &- begin))
            plotText = try frames(of: app) { $0.historyPlot?.answer != nil }
            let shown = Double(MonotonicClock.nanoseconds() &- begin)
            samples.plotShown.append(shown)
            for _ in 0..<200 {
                let frame = MonotonicClock.nanoseconds()
                _ = app.renderFrame(width: 200, height: 60)
                samples.plotFrames.append(Double(MonotonicClock.nanoseconds() &- frame))
            }
            return shown
        }
        guard plotText.contains("\(watchedPointer) ·"), plotText.contains("█") else {
            throw BenchFailure("b drew no plot of \(watchedPointer):\n\(plotText)")
        }

        // A pinned watch: saved for the session's app, its column filled for the rows around the middle event.
        let pins = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-bench-pins-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: pins) }
        let pinFile = PinFile(url: pins)
        try pinFile.save(PinBoard(apps: [RecordedSession.appName: [watchedPointer]]))
        var pinnedText = ""
        _ = try Sampler.collect(plan) {
            let (app, _) = openedApp(session, pinFile: pinFile)
            let begin = MonotonicClock.nanoseconds()
            goTo(middle, in: app)
            pinnedText = try frames(of: app) { model in
                let shown = model.visibleIndices
                return !shown.isEmpty && shown.allSatisfy { model.pinnedValues?.values[$0] != nil }
            }
            let shown = Double(MonotonicClock.nanoseconds() &- begin)
            samples.pinsShown.append(shown)
            for step in 0..<200 {
                app.handle(step % 100 < 50 ? .down : .up)
                let frame = MonotonicClock.nanoseconds()
                _ = app.renderFrame(width: 200, height: 60)
                samples.pinnedFrames.append(Double(MonotonicClock.nanoseconds() &- frame))
            }
            return shown
        }
        guard pinnedText.contains("value") else {
            throw BenchFailure("no pinned column beside the rows:\n\(pinnedText)")
        }
        return samples
    }
}
