import Foundation
import Testing
import RewindTUI
import RewindTestSupport

/// `run(on:)` on a real pseudo-terminal: keys go through ncurses, frames come out of it.
/// Serialized with the other ncurses tests, since ncurses has global state.
extension TerminalTests {
    @Test("the run loop paints the timeline, executes Enter as a jump and ends on q")
    func runLoop() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let terminal = try Terminal(termName: "xterm-256color", inputDescriptor: pty.secondary,
                                    outputDescriptor: pty.secondary, colorMode: .colors)
        defer { terminal.close() }
        let actions = RecordingActions()
        let app = TimelineApp(dataSource: Fixtures.todoSource(connectedApps: 0), actions: actions)
        pty.type("k\r")
        PseudoTerminal.after(0.3) { pty.type("q") }
        app.run(on: terminal)
        #expect(actions.calls == ["jump s-todo 29", "quit"])
        let screen = terminal.screenLines()
        #expect(screen.count == 24)
        #expect(screen[0].hasPrefix(" rewind ws://127.0.0.1:7723"))
        #expect(screen.contains { $0.hasPrefix("  29     +7.250s   todo/toggle") })
        #expect(screen.contains { $0.hasPrefix(" done: jump s-todo 29") })
        #expect(pty.written.contains("todo/toggle"), "the frame reached the terminal")
    }

    @Test("a key is handled while a command waits for the app: q quits during a blocked jump")
    func keysDuringACommand() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let terminal = try Terminal(termName: "xterm-256color", inputDescriptor: pty.secondary,
                                    outputDescriptor: pty.secondary, colorMode: .colors)
        defer { terminal.close() }
        let actions = BlockingActions()  // the jump returns only once quit() released it (or after 5 s)
        defer { actions.release() }
        let app = TimelineApp(dataSource: Fixtures.todoSource(connectedApps: 0), actions: actions)
        pty.type("\r")
        PseudoTerminal.after(0.3) {
            _ = actions.waitUntilJumpStarted()
            pty.type("q")
        }
        let started = Date()
        app.run(on: terminal)
        #expect(Date().timeIntervalSince(started) < TestTime.seconds(3), "q was not held up by the running jump")
        #expect(terminal.screenLines().contains { $0.hasPrefix(" jumping to event 30…") },
                "the last frame showed the jump in progress")
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        #expect(actions.calls == ["quit", "jump 30"])
    }

    @Test("SIGTERM ends the run loop cleanly, through actions.quit")
    func terminationSignal() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let terminal = try Terminal(termName: "xterm-256color", inputDescriptor: pty.secondary,
                                    outputDescriptor: pty.secondary, colorMode: .colors)
        defer { terminal.close() }
        let actions = RecordingActions()
        let app = TimelineApp(dataSource: Fixtures.todoSource(connectedApps: 3), actions: actions)
        PseudoTerminal.after(0.2) { kill(getpid(), SIGTERM) }
        app.run(on: terminal)
        #expect(actions.calls == ["quit"])
    }
}
