import Foundation
import RewindTestSupport
import Testing

/// The live timeline in a real terminal: `rewind` runs inside tmux, the test types keys with `send-keys` and reads
/// the screen with `capture-pane`.
@Suite("Timeline in a terminal (tmux)", .serialized, .enabled(if: Tmux.isAvailable, "tmux is not installed"))
struct TimelineTmuxTests {
    @Test("a sample streams into the timeline, and Enter on an event puts the app in that state")
    func enterJumpsTheApp() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-tmux-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let port = FreePort.next()
        let tmux = try Tmux(command: "\(Executables.path("rewind")) --port \(port) --data \(data.path)")
        defer { tmux.kill() }
        #expect(tmux.waitForScreen { $0.contains("ws://127.0.0.1:\(port)") } != nil, "the header shows the address")

        let script = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-tmux-\(UUID()).txt").path
        try ["add 1", "add 2", "add 3", "add 4"].joined(separator: "\n").write(toFile: script, atomically: true,
                                                                               encoding: .utf8)
        let app = try ChildProcess(Executables.path("counter"), ["--script", script, "--stay"],
                                   environment: ["REWIND_URL": "ws://127.0.0.1:\(port)"])
        defer { app.closeInput() }
        let screen = try #require(tmux.waitForScreen { $0.contains("4 events") && $0.contains("add") })
        #expect(screen.contains("counter"))
        #expect(screen.contains("● REC"))

        // Go to the top of the timeline, down to event 2, and jump there.
        tmux.send("g")
        tmux.send("j", "j")
        #expect(tmux.waitForScreen { $0.contains("#2 add") } != nil, "the detail pane shows event 2")
        let linesBefore = app.stdoutLines.count
        tmux.send("Enter")
        #expect(app.waitForLine(timeout: 5, after: linesBefore) { $0 == #"{"count":3}"# } != nil,
                "the app took the state of event 2")
        #expect(tmux.waitForScreen { $0.contains("jumped the app to event 2") } != nil)

        // q asks while an app is connected; y quits.
        tmux.send("q")
        #expect(tmux.waitForScreen { $0.contains("Quit rewind?") } != nil)
        tmux.send("y")
        #expect(tmux.waitForExit(), "rewind quit")
    }

    @Test("on quit, rewind says where the sessions are and how to reopen the last one (issue 31)")
    func quitSaysWhereSessionsAre() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-tmux-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let port = FreePort.next()
        // The shell keeps the pane after rewind exits, so that what it printed on quit can be read.
        let tmux = try Tmux(command: "sh -c '\(Executables.path("rewind")) --port \(port) --data \(data.path); sleep 60'",
                            width: 300, height: 30)
        defer { tmux.kill() }
        #expect(tmux.waitForScreen { $0.contains("REWIND_URL=ws://127.0.0.1:\(port)") } != nil,
                "off the default port, the header says what an app needs")
        let app = try ChildProcess(Executables.path("counter"), [], environment: ["REWIND_URL": "ws://127.0.0.1:\(port)"])
        app.write("add 1\n")
        app.closeInput()
        #expect(app.waitForExit() == 0)
        let listed = try #require(tmux.waitForScreen { $0.contains("1 event") && $0.contains("ended") })
        let id = try #require(listed.split(separator: " ").first { $0.contains("-counter-") }.map(String.init))
        tmux.send("q")
        // The line is longer than the pane: tmux wraps it.
        let farewell = tmux.waitForScreen { $0.contains("sessions are in") }?.replacingOccurrences(of: "\n", with: "")
        #expect(farewell?.contains("rewind: 1 session recorded this run; sessions are in \(data.path): "
            + "'rewind open \(id) --data \(data.path)' reopens the last one, 'rewind sessions --data \(data.path)' "
            + "lists them") == true, "\(farewell ?? tmux.screen)")
    }

    @Test("p holds the app's actions back and resume counts them; < steps back one event and jumps the app there")
    func pauseAndStep() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-tmux-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let port = FreePort.next()
        let tmux = try Tmux(command: "\(Executables.path("rewind")) --port \(port) --data \(data.path)")
        defer { tmux.kill() }
        #expect(tmux.waitForScreen { $0.contains("ws://127.0.0.1:\(port)") } != nil, "the header shows the address")

        // The counter reads its commands from standard input.
        let app = try ChildProcess(Executables.path("counter"), [], environment: ["REWIND_URL": "ws://127.0.0.1:\(port)"])
        defer { app.closeInput() }
        app.write("add 1\nadd 2\n")
        try #require(tmux.waitForScreen { $0.contains("2 events") } != nil)

        tmux.send("p")
        #expect(tmux.waitForScreen { $0.contains("PAUSED") } != nil, "the header says paused")
        app.write("add 3\nadd 4\nadd 5\n")
        #expect(app.waitForLine { $0 == #"{"count":15}"# } != nil, "the app kept running")
        let paused = tmux.waitForScreen { $0.contains("PAUSED (3 held)") }
        #expect(paused != nil, "the held events are counted")
        #expect(paused?.contains("2 events") == true, "the timeline stayed as it was")

        tmux.send("p")
        #expect(tmux.waitForScreen { $0.contains("3 events arrived while paused") && $0.contains("5 events") } != nil)

        let linesBefore = app.stdoutLines.count
        tmux.send("<")
        #expect(app.waitForLine(timeout: 5, after: linesBefore) { $0 == #"{"count":10}"# } != nil,
                "the app took the state of event 4")
        #expect(tmux.waitForScreen { $0.contains("jumped the app to event 4") } != nil)

        tmux.send("q")
        #expect(tmux.waitForScreen { $0.contains("Quit rewind?") } != nil)
        tmux.send("y")
        #expect(tmux.waitForExit(), "rewind quit")
    }

    @Test("the demo starts, shows events from both samples, quits cleanly and leaves no process behind")
    func demo() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let root = Executables.packageRoot.path
        let tmux = try Tmux(command: "env REWIND_DEMO_BIN=\(Executables.directory.path) "
            + "REWIND_DEMO_PORT=\(FreePort.next()) REWIND_DEMO_DATA=\(data.path) \(root)/samples/demo.sh")
        defer { tmux.kill() }
        let screen = try #require(tmux.waitForScreen(timeout: 30) {
            $0.contains("2 apps") && $0.contains("login") && $0.contains("todo") && $0.contains("ev")
        }, "both samples stream into the timeline")
        #expect(screen.contains("● REC"))
        tmux.send("q")
        #expect(tmux.waitForScreen { $0.contains("Quit rewind?") } != nil)
        tmux.send("y")
        #expect(tmux.waitForExit(), "the demo ended")
        usleep(TestTime.microseconds(500_000))
        // The tmux server keeps the command line of the client that started it, which can be this test's while
        // other tests' tmux sessions keep the server running: it is not a process of the demo.
        let left = (Tmux.processes(matching: data.path) + Tmux.processes(matching: "--demo")
            .filter { $0.hasPrefix(Executables.directory.path) })
            .filter { !$0.hasPrefix("/usr/bin/tmux ") && !$0.hasPrefix("tmux ") }
        #expect(left.isEmpty, "no process of the demo is left: \(left)")
    }
}
