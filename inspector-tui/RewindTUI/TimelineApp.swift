import Foundation

/// The live timeline: the public entry point the `rewind` executable calls.
///
/// `run()` takes over the terminal and loops until the user quits: it polls keys with a short timeout, hands
/// them to the `TimelineController`, executes the resulting commands through `TimelineActions` (showing each
/// outcome in the status line), and repaints — only when a key arrived or the data source's `changeCounter`
/// moved (and once a second for the events/s sparkline), and at most 30 times a second, so 10,000 events/s
/// arriving cost at most 30 cheap frames per second. Ingest never waits for the UI: the data source is only
/// read, from this thread.
///
/// `renderOnce(width:height:)` renders a frame as text without any terminal, for tests and end-to-end checks;
/// `handle(_:)` feeds a key through the same path `run()` uses.
///
/// Threading: create, run and drive it on one thread (the UI thread; usually the main thread). The data source
/// and the actions are called on that thread.
public final class TimelineApp {
    /// The longest wait between repaints while data keeps changing: 1/30 s.
    public static let frameInterval = 1.0 / 30.0

    private let dataSource: any TimelineDataSource
    private let actions: any TimelineActions
    private let environment: [String: String]
    private let clock: () -> Double
    private var controller: TimelineController
    private let renderer: TimelineRenderer
    private var painter: ScreenPainter?

    /// A timeline over `dataSource` whose commands `actions` executes.
    /// - Parameters:
    ///   - initialSession: the session to show first (`rewind open SESSION`); otherwise the first live one.
    ///   - environment: where `TERM` and `NO_COLOR` are read.
    ///   - clock: monotonic seconds (frame pacing, detail throttling); injectable for tests.
    public init(
        dataSource: any TimelineDataSource,
        actions: any TimelineActions,
        initialSession: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        clock: @escaping () -> Double = MonotonicClock.now
    ) {
        self.dataSource = dataSource
        self.actions = actions
        self.environment = environment
        self.clock = clock
        let detailContent = DetailContentCache(dataSource: dataSource)
        controller = TimelineController(
            dataSource: dataSource, initialSession: initialSession, detailContent: detailContent, clock: clock)
        renderer = TimelineRenderer(dataSource: dataSource, detailContent: detailContent)
    }

    /// The UI state (for tests and for callers that want to know what is selected).
    public var model: TimelineModel {
        controller.model
    }

    /// Takes over the terminal and runs until the user quits or SIGINT/SIGTERM/SIGHUP arrives; the terminal is
    /// restored in every case, and `actions.quit()` is called once before returning.
    /// - Throws: `TerminalError` (before touching the screen) when stdin/stdout is not a terminal or `TERM` is
    ///   missing or unusable; print its description and exit non-zero.
    public func run() throws(TerminalError) {
        let terminal = try Terminal.open(environment: environment)
        defer { terminal.close() }
        run(on: terminal)
    }

    /// Runs the loop on a terminal the caller opened (a pseudo-terminal in tests), until the user quits or a
    /// termination signal arrives; leaves the terminal open (the caller closes it). Calls `actions.quit()`
    /// once before returning.
    public func run(on terminal: Terminal) {
        painter = terminal.painter
        defer { painter = nil }
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
            let now = clock()
            if now - lastPaint >= 1 { needsPaint = true }
            if needsPaint && now - lastPaint >= Self.frameInterval {
                controller.refresh()
                terminal.painter.paint(renderer.render(controller.model, now: now))
                lastPaint = now
                needsPaint = false
            }
        }
    }

    /// Handles one key as `run()` does — fresh data, controller, then commands through the actions, outcomes to
    /// the status line. Returns true when the key quit the timeline (after calling `actions.quit()`).
    @discardableResult
    public func handle(_ key: Key) -> Bool {
        controller.refresh()
        for command in controller.handle(key) {
            if execute(command) { return true }
        }
        return false
    }

    /// Renders one frame at the given size, as text (rows without trailing spaces, joined by newlines), without
    /// a terminal: for tests and end-to-end checks.
    public func renderOnce(width: Int, height: Int) -> String {
        renderFrame(width: width, height: height).text
    }

    /// Renders one frame at the given size, with styles, without a terminal.
    public func renderFrame(width: Int, height: Int) -> ScreenBuffer {
        controller.resize(width: width, height: height)
        controller.refresh()
        return renderer.render(controller.model, now: clock())
    }

    /// Executes a command; true when it is `.quit`.
    private func execute(_ command: TimelineCommand) -> Bool {
        switch command {
        case .quit:
            actions.quit()
            return true
        case .redraw:
            painter?.invalidate()
        case .jump(let session, let index):
            perform { try actions.jump(session: session, index: index) }
        case .skip(let session, let index):
            perform { try actions.skip(session: session, index: index) }
            controller.detailContent.invalidate()
        case .replay(let session, let index):
            perform { try actions.replay(session: session, from: index) }
        case .dispatch(let session, let action):
            perform { try actions.dispatch(session: session, action: action) }
        case .export(let session):
            perform { try actions.export(session: session) }
        }
        return false
    }

    private func perform(_ action: () throws -> String) {
        do {
            controller.report(StatusMessage(try action()))
        } catch {
            controller.report(StatusMessage("\(error)", isError: true))
        }
    }
}
