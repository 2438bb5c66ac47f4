import Foundation
import RewindSessionFile
import RewindWire

/// The live timeline: the public entry point the `rewind` executable calls.
///
/// `run()` takes over the terminal and loops until the user quits: it polls keys with a short timeout, hands
/// them to the `TimelineController`, hands the resulting commands to a background queue that executes them
/// through `TimelineActions` one at a time, in order (queued jumps coalescing to the last one; the status line says "jumping to event N…" at once, and
/// each outcome when it arrives; keys keep working meanwhile), and repaints — only when a key arrived or the data source's `changeCounter`
/// moved (and once a second for the events/s sparkline), and at most 30 times a second, so 10,000 events/s
/// arriving cost at most 30 cheap frames per second. Ingest never waits for the UI: the data source is only
/// read, from this thread.
///
/// `renderOnce(width:height:)` renders a frame as text without any terminal, for tests and end-to-end checks;
/// `handle(_:)` feeds a key through the same path `run()` uses; `waitForCommands(timeout:)` waits for the
/// commands it started.
///
/// Threading: create, run and drive it on one thread (the UI thread; usually the main thread). The data source
/// is called on that thread; the actions' commands on the command queue's thread, and `quit()` on the UI thread; the
/// value plot's and the pinned watches' reads on threads of their own (`LatestRequestRunner`); `pins.json` is written
/// on the UI thread.
package final class TimelineApp {
    /// The longest wait between repaints while data keeps changing: 1/30 s.
    package static let frameInterval = 1.0 / 30.0

    private let dataSource: any TimelineDataSource
    private let actions: any TimelineActions
    private let commands: CommandQueue
    private let searches: SearchRunner
    private let rowFilters: RowFilterRunner
    private let stats: StatsRunner
    private let maps: SessionMapRunner
    /// Reads the value plot's samples (`b` on a node) off the UI thread.
    private let plots: LatestRequestRunner<HistoryPlotJob, HistoryPlotState.Answer>
    /// Reads the pinned watches' values for the rows on screen off the UI thread.
    private let pinReads: LatestRequestRunner<PinnedValuesState.Request, [[RecordedValue]]>
    /// Where the pinned watches are saved (`pins.json`).
    private let pinFile: PinFile
    private let charts: SessionChartRunner
    /// The running search's last shown progress (searched events), to repaint only when it moves.
    private var shownSearchProgress = -1
    /// Commands submitted and not yet reported, oldest (the running one) first.
    private var running: [TimelineCommand] = []
    private let environment: [String: String]
    private let clock: () -> Double
    private var controller: TimelineController
    private let renderer: TimelineRenderer
    private var painter: ScreenPainter?
    private var terminal: Terminal?

    /// A timeline over `dataSource` whose commands `actions` executes.
    /// - Parameters:
    ///   - initialSession: the session to show first (`rewind open SESSION`); otherwise the first live one.
    ///   - environment: where `TERM` and `NO_COLOR` are read, and `XDG_CONFIG_HOME` / `HOME` (where `pins.json` is).
    ///   - clock: monotonic seconds (frame pacing, detail throttling); injectable for tests.
    ///   - pinFile: where the pinned watches are read from (at once) and saved; by default `pins.json` under the
    ///     config directory `environment` names (`PinFile(environment:)`).
    package init(
        dataSource: any TimelineDataSource,
        actions: any TimelineActions,
        initialSession: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        clock: @escaping () -> Double = MonotonicClock.now,
        pinFile: PinFile? = nil
    ) {
        self.dataSource = dataSource
        self.actions = actions
        commands = CommandQueue(actions: actions)
        searches = SearchRunner(dataSource: dataSource)
        rowFilters = RowFilterRunner(dataSource: dataSource)
        stats = StatsRunner(dataSource: dataSource)
        maps = SessionMapRunner(dataSource: dataSource)
        plots = LatestRequestRunner(label: "rewind.timeline.plot") { job, progress in
            try job.answer(from: dataSource, progress: progress)
        }
        pinReads = LatestRequestRunner(label: "rewind.timeline.pins") { request, progress in
            let pointers = request.pointers.map { (try? JSONPointer($0)) ?? .root }
            return try dataSource.values(session: request.session, pointers: pointers, after: request.indices,
                                         progress: progress)
        }
        self.pinFile = pinFile ?? PinFile(environment: environment)
        charts = SessionChartRunner(dataSource: dataSource)
        self.environment = environment
        self.clock = clock
        let detailContent = DetailContentCache(dataSource: dataSource)
        controller = TimelineController(
            dataSource: dataSource, initialSession: initialSession, detailContent: detailContent, clock: clock)
        renderer = TimelineRenderer(dataSource: dataSource, detailContent: detailContent)
        controller.loadPins(self.pinFile.load())
    }

    /// The UI state (for tests and for callers that want to know what is selected).
    package var model: TimelineModel {
        controller.model
    }

    /// Takes over the terminal and runs until the user quits or SIGINT/SIGTERM/SIGHUP arrives; the terminal is
    /// restored in every case, and `actions.quit()` is called once before returning.
    /// - Throws: `TerminalError` (before touching the screen) when stdin/stdout is not a terminal or `TERM` is
    ///   missing or unusable; print its description and exit non-zero.
    package func run() throws(TerminalError) {
        let terminal = try Terminal.open(environment: environment)
        defer { terminal.close() }
        run(on: terminal)
    }

    /// Runs the loop on a terminal the caller opened (a pseudo-terminal in tests), until the user quits or a
    /// termination signal arrives; leaves the terminal open (the caller closes it). Calls `actions.quit()`
    /// once before returning.
    package func run(on terminal: Terminal) {
        painter = terminal.painter
        self.terminal = terminal
        defer {
            painter = nil
            self.terminal = nil
        }
        let size = terminal.size
        controller.resize(width: size.width, height: size.height)
        var lastCounter = dataSource.changeCounter
        var lastPaint = clock() - 1
        var needsPaint = true
        while true {
            if terminal.terminationRequested {
                actions.quit()
                return
            }
            // Wait for a key until the next frame is due when something changed, else one frame interval
            // (new data is picked up within a frame either way).
            let counter = dataSource.changeCounter
            if collectOutcomes() {
                needsPaint = true
            }
            if counter != lastCounter {
                lastCounter = counter
                needsPaint = true
            }
            let untilFrame = min(max(0, lastPaint + Self.frameInterval - clock()), Self.frameInterval)
            let wait = needsPaint ? untilFrame : Self.frameInterval
            var key = terminal.readKey(timeoutMilliseconds: Int((wait * 1000).rounded(.up)))
            var handled = 0
            while let pressed = key {
                if pressed == .resize {
                    let size = terminal.size
                    controller.resize(width: size.width, height: size.height)
                    terminal.painter.invalidate()
                } else if handle(pressed) {
                    return
                }
                needsPaint = true
                handled += 1
                key = handled < 256 ? terminal.readKey(timeoutMilliseconds: 0) : nil
            }
            if controller.applyDuePreview() {
                startRowFilter()
                needsPaint = true
            }
            let now = clock()
            if now - lastPaint >= 1 { needsPaint = true }
            if needsPaint && now - lastPaint >= Self.frameInterval {
                controller.refresh()
                startRowFilter()
                startMap()
                startValueReads()
                terminal.painter.paint(renderer.render(controller.model, now: now))
                lastPaint = now
                needsPaint = false
            }
        }
    }

    /// Handles one key as `run()` does — fresh data, controller, then commands to the background queue (their
    /// outcomes reach the status line later: see `waitForCommands(timeout:)`). Returns true when the key quit
    /// the timeline (after calling `actions.quit()`).
    @discardableResult
    package func handle(_ key: Key) -> Bool {
        collectOutcomes()
        controller.refresh()
        for command in controller.handle(key) {
            if execute(command) { return true }
        }
        controller.applyDuePreview()
        startRowFilter()
        startMap()
        startValueReads()
        return false
    }

    /// Waits until the commands started so far have finished (at most `timeout` seconds) and shows their
    /// outcomes; true when all finished. For tests and scripted callers: `run()` never waits.
    @discardableResult
    package func waitForCommands(timeout: Double = 10) -> Bool {
        let deadline = clock() + timeout
        let finished = commands.waitUntilIdle(timeout: timeout)
            && searches.waitUntilIdle(timeout: max(0, deadline - clock()))
            && rowFilters.waitUntilIdle(timeout: max(0, deadline - clock()))
            && stats.waitUntilIdle(timeout: max(0, deadline - clock()))
            && maps.waitUntilIdle(timeout: max(0, deadline - clock()))
            && plots.waitUntilIdle(timeout: max(0, deadline - clock()))
            && pinReads.waitUntilIdle(timeout: max(0, deadline - clock()))
            && charts.waitUntilIdle(timeout: max(0, deadline - clock()))
        collectOutcomes()
        return finished
    }

    /// Renders one frame at the given size, as text (rows without trailing spaces, joined by newlines), without
    /// a terminal: for tests and end-to-end checks.
    package func renderOnce(width: Int, height: Int) -> String {
        renderFrame(width: width, height: height).text
    }

    /// Renders one frame at the given size, with styles, without a terminal.
    package func renderFrame(width: Int, height: Int) -> ScreenBuffer {
        collectOutcomes()
        controller.resize(width: width, height: height)
        controller.refresh()
        controller.applyDuePreview()
        startRowFilter()
        startMap()
        startValueReads()
        return renderer.render(controller.model, now: clock())
    }

    /// Carries out a command: `quit` and `redraw` at once, the others on the command queue; true for `.quit`.
    private func execute(_ command: TimelineCommand) -> Bool {
        switch command {
        case .search(let request):
            searches.start(request)
            shownSearchProgress = -1
        case .cancelSearch:
            searches.cancel()
        case .computeStats(let session, let count):
            stats.start(session: session, count: count)
        case .quit:
            searches.cancel()
            stats.cancel()
            maps.cancel()
            plots.cancel()
            pinReads.cancel()
            charts.cancel()
            rowFilters.cancel()
            commands.cancelQueued()
            actions.quit()
            return true
        case .redraw:
            painter?.invalidate()
        case .openInPager(let text, let name):
            openInPager(text, name: name)
        case .copy(let text, let what):
            copy(text, what: what)
        case .deleteSession(let session):
            deleteSession(session)
        case .savePins(let board, let said):
            savePins(board, said: said)
        case .jump, .skip, .replay, .dispatch, .export:
            running.append(command)
            if let replaced = commands.submit(command), let position = running.lastIndex(of: replaced) {
                running.remove(at: position)  // a queued jump the new one replaces: it will not run
            }
            showActivity()
        }
        return false
    }

    /// `o`: hands the terminal to `$PAGER` on `text` until it exits (without a terminal: says so).
    private func openInPager(_ text: String, name: String) {
        guard let terminal else {
            controller.report(StatusMessage("no terminal to run the pager on", isError: true))
            return
        }
        var failure: String?
        terminal.suspend {
            failure = Pager.show(text, name: name, environment: environment)
        }
        controller.report(failure.map { StatusMessage($0, isError: true) }
            ?? StatusMessage("closed the pager (\(Pager.command(environment: environment)))"))
    }

    /// `x` / Delete confirmed with `y`: deletes the session's files through the data source, at once (a few
    /// unlinks), after stopping a search or row filter still reading it; the controller then reads the list again,
    /// selects a neighbour and says what happened (or why nothing was deleted).
    private func deleteSession(_ session: String) {
        if searches.running?.request.session == session { searches.cancel() }
        if controller.model.hiding?.session == session { rowFilters.cancel() }
        if controller.model.map?.session == session { maps.cancel() }
        if controller.model.chart?.session == session { charts.cancel() }
        let outcome: Result<String, any Error>
        do {
            outcome = .success(try dataSource.deleteSession(session))
        } catch {
            outcome = .failure(error)
        }
        controller.finishDeletion(of: session, outcome: outcome)
    }

    /// `w`: saves the pinned watches to `pins.json`, atomically (a few hundred bytes, on the UI thread) — unless the
    /// file could not be read as a pins file at start: it is never written over then, and the status line says so.
    private func savePins(_ board: PinBoard, said: String) {
        if controller.model.pinFileProblem != nil {
            controller.report(StatusMessage("\(said) — for this run only: \(pinFile.url.path) is not a pins file, "
                + "so it is not written over (fix or remove it)", isError: true))
            return
        }
        do {
            try pinFile.save(board)
        } catch {
            controller.report(StatusMessage("\(said) — for this run only: cannot save \(pinFile.url.path): "
                + "\(error.localizedDescription)", isError: true))
        }
    }

    /// `y` / `Y`: writes `text` to the copy file in the data directory, and also sends it with OSC 52 when the
    /// terminal takes it (`Clipboard`); the status line says where it went.
    private func copy(_ text: String, what: String) {
        let directory = dataSource.dataDirectory ?? FileManager.default.temporaryDirectory
        let file: URL
        do {
            file = try Clipboard.write(text, in: directory)
        } catch {
            controller.report(StatusMessage("cannot copy \(what): \(error.localizedDescription)", isError: true))
            return
        }
        if let terminal, Clipboard.takesOSC52(environment: environment), text.utf8.count <= Clipboard.maxOSC52Bytes {
            terminal.writeRaw(Clipboard.osc52(text))
            controller.report(StatusMessage("copied \(what) to the clipboard (OSC 52); also in \(file.path)"))
        } else {
            controller.report(StatusMessage("copied \(what) to \(file.path)"))
        }
    }

    /// Shows the outcomes of finished commands in the status line; true when there were any.
    @discardableResult
    private func collectOutcomes() -> Bool {
        var changed = collectSearch()
        changed = collectRows() || changed
        for outcome in maps.takeOutcomes() {
            controller.receiveMap(outcome.request, map: outcome.map, failure: outcome.failure)
            changed = true
        }
        for outcome in plots.takeOutcomes() {
            controller.receiveHistoryPlot(outcome.request.request, answer: outcome.answer, failure: outcome.failure)
            changed = true
        }
        for outcome in pinReads.takeOutcomes() {
            controller.receivePinnedValues(outcome.request, values: outcome.answer, failure: outcome.failure)
            changed = true
        }
        for outcome in charts.takeOutcomes() {
            controller.receiveChart(outcome.request, chart: outcome.chart, failure: outcome.failure,
                                    seconds: outcome.seconds, complete: outcome.complete)
            changed = true
        }
        if let outcome = stats.takeOutcome() {
            controller.receiveStats(session: outcome.session, statistics: outcome.statistics, failure: outcome.failure)
            changed = true
        }
        guard commands.hasOutcomes else { return changed }
        changed = true
        for outcome in commands.takeOutcomes() {
            if let position = running.firstIndex(of: outcome.command) {
                running.remove(at: position)
            }
            if case .skip = outcome.command {
                controller.detailContent.invalidate()
            }
            controller.report(outcome.message)
        }
        showActivity()
        return changed
    }

    /// Starts computing the rows of the row filter the controller asks for (set just now, or events recorded since).
    private func startRowFilter() {
        if controller.model.hiding == nil { rowFilters.cancel() }  // cleared (Esc): stop computing its rows
        if let stretch = controller.rowsToCompute() {
            rowFilters.start(stretch.filter, range: stretch.range)
        }
    }

    /// Starts computing the session map when the controller asks (shown, and its session, height, search or — at a
    /// bounded rate — event count changed), and the chart likewise (shown, and its session, width or — at a bounded
    /// rate — event count changed).
    private func startMap() {
        if let request = controller.mapToCompute() { maps.start(request) }
        // A chart not shown yet fills in as its slices come; one shown is replaced once the new one is complete.
        let shown = controller.model.chart.map { $0.session == controller.model.selectedSessionID && $0.charted != nil }
            ?? false
        if let request = controller.chartToCompute() { charts.start(request, progressive: !shown) }
    }

    /// Starts the reads off the UI thread the controller asks for: the value plot's samples, and the pinned watches'
    /// values of the rows on screen not read yet.
    private func startValueReads() {
        if let job = controller.historyPlotToCompute() { plots.start(job) }
        if let request = controller.pinnedValuesToCompute() { pinReads.start(request) }
    }

    /// Hands finished row-filter stretches to the controller, or shows the running one's progress; true when the
    /// screen changed.
    private func collectRows() -> Bool {
        let outcomes = rowFilters.takeOutcomes()
        for outcome in outcomes {
            controller.receiveRows(outcome.rows, for: outcome.filter, range: outcome.range, failure: outcome.failure)
        }
        if !outcomes.isEmpty { return true }
        guard let running = rowFilters.running else { return false }
        controller.showFilteringProgress(searched: running.searched, total: running.total)
        return true
    }

    /// Shows the running search's progress (when it moved) or its outcome; true when the screen changed.
    private func collectSearch() -> Bool {
        if let outcome = searches.takeOutcome() {
            controller.finishSearch(outcome.request, found: outcome.found, wrapped: outcome.wrapped,
                                    cancelled: outcome.cancelled, failure: outcome.failure)
            shownSearchProgress = -1
            return true
        }
        guard let running = searches.running, running.searched != shownSearchProgress else { return false }
        shownSearchProgress = running.searched
        controller.showSearchProgress(running.request, searched: running.searched, total: running.total)
        return true
    }

    /// Says in the status line what the running command does, and how many wait behind it.
    private func showActivity() {
        guard let first = running.first, let description = first.progressDescription else {
            controller.showActivity(nil)
            return
        }
        let waiting = running.count - 1
        controller.showActivity(StatusMessage(waiting > 0 ? "\(description) (\(waiting) more queued)" : description))
    }
}
