import Foundation
import Testing
import RewindTUI
import RewindWire
import RewindTestSupport

/// Counts frames (one `events` read per frame) of a source another thread keeps feeding.
private final class FrameCountingSource: TimelineDataSource, @unchecked Sendable {  // `frames` guarded by `lock`
    let inner: InMemoryTimelineDataSource
    private let lock = NSLock()
    private var frameCount = 0

    init(_ inner: InMemoryTimelineDataSource) { self.inner = inner }

    var frames: Int { lock.withLock { frameCount } }
    var changeCounter: UInt64 { inner.changeCounter }
    /// Read once per frame painted (`TimelineController.refresh()`). Not `events`, which the session map's thread
    /// also calls, reading the growing session row by row (under ThreadSanitizer, dozens of times a second).
    func header() -> TimelineHeader {
        lock.withLock { frameCount += 1 }
        return inner.header()
    }
    func sessions() -> [TimelineSession] { inner.sessions() }
    func events(session: String, range: ClosedRange<Int>) throws -> [TimelineEvent] {
        try inner.events(session: session, range: range)
    }
    func event(session: String, index: Int) throws -> TimelineEvent {
        try inner.event(session: session, index: index)
    }
    func state(session: String, index: Int) throws -> JSONValue { try inner.state(session: session, index: index) }
}

extension TerminalTests {
    @Test("with 10,000 events/s arriving, the screen repaints at most ~30 times a second and keys still answer")
    func liveLoad() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let terminal = try Terminal(termName: "xterm-256color", inputDescriptor: pty.secondary,
                                    outputDescriptor: pty.secondary, colorMode: .colors)
        defer { terminal.close() }
        let inner = Fixtures.todoSource(count: 10, connectedApps: 0)
        let source = FrameCountingSource(inner)
        let stop = NSLock()
        nonisolated(unsafe) var stopped = false
        let producer = Thread {
            var sent = 0
            let start = Date()
            while !stop.withLock({ stopped }) {
                // 10 events per millisecond.
                let due = Int(Date().timeIntervalSince(start) * 10_000)
                while sent < due {
                    _ = try? inner.append(session: "s-todo", time: Fixtures.start + Double(sent) / 10_000, label: "load/tick")
                    sent += 1
                }
                usleep(1_000)
            }
        }
        producer.start()
        let app = TimelineApp(dataSource: source, actions: RecordingActions())
        PseudoTerminal.after(1.0) { pty.type("q") }
        let started = Date()
        app.run(on: terminal)
        let ran = Date().timeIntervalSince(started)
        stop.withLock { stopped = true }
        let frames = source.frames
        let arrived = inner.sessions().first { $0.id == "s-todo" }?.eventCount ?? 0
        print("live load: \(arrived) events in \(String(format: "%.2f", ran)) s, \(frames) frames "
              + "(\(String(format: "%.1f", Double(frames) / ran)) per second)")
        #expect(arrived > 5_000)
        #expect(Double(frames) / ran <= 32, "never more than ~30 frames a second")
        #expect(frames >= 5, "it kept repainting while events arrived")
        #expect(ran < TestTime.seconds(1.6), "q was answered promptly under load")
        #expect(terminal.screenLines().contains { $0.contains("load/tick") })
    }

    @Test("a terminal resize (SIGWINCH → KEY_RESIZE) lays the screen out again at the new size")
    func resize() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let terminal = try Terminal(termName: "xterm-256color", inputDescriptor: pty.secondary,
                                    outputDescriptor: pty.secondary, colorMode: .colors)
        defer { terminal.close() }
        #expect(terminal.size == (80, 24))
        let app = TimelineApp(dataSource: Fixtures.todoSource(connectedApps: 0), actions: RecordingActions())
        PseudoTerminal.after(0.2) {
            pty.resize(columns: 132, rows: 40)
            kill(getpid(), SIGWINCH)
        }
        PseudoTerminal.after(0.6) { pty.type("q") }
        app.run(on: terminal)
        #expect(terminal.size == (132, 40))
        let screen = terminal.screenLines()
        #expect(screen.count == 40)
        #expect(screen[1].contains("│ 1 Action"), "wide layout: the detail pane moved to the right")
        #expect(app.model.screenWidth == 132 && app.model.screenHeight == 40)
    }
}
