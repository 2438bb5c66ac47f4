import Foundation
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
        usleep(500_000)
        // The tmux server keeps the command line of the client that started it, which can be this test's while
        // other tests' tmux sessions keep the server running: it is not a process of the demo.
        let left = (Tmux.processes(matching: data.path) + Tmux.processes(matching: "--demo")
            .filter { $0.hasPrefix(Executables.directory.path) })
            .filter { !$0.hasPrefix("/usr/bin/tmux ") && !$0.hasPrefix("tmux ") }
        #expect(left.isEmpty, "no process of the demo is left: \(left)")
    }
}

/// A tmux session running one command in a 120×36 window, killed when released.
final class Tmux {
    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") }

    /// The session's name, also the name of its own tmux server's socket (`tmux -L`): each test's screen runs in a
    /// server of its own, so one test ending its last session (which stops a shared server) cannot make another
    /// test's `new-session` fail while it connects.
    private let name = "rewind-test-\(UUID().uuidString.prefix(8))"

    init(command: String, width: Int = 120, height: Int = 36) throws {
        var attempt = 0
        while true {
            attempt += 1
            let started = shell(tmux(["new-session", "-d", "-s", name, "-x", "\(width)", "-y", "\(height)",
                                      "env TERM=tmux-256color \(command)"]) + " 2>&1")
            if started.status == 0 { return }
            // A server that is still starting or stopping under a loaded machine refuses a client now and then.
            guard attempt < 3 else {
                throw TmuxError("tmux new-session failed with status \(started.status): \(started.output)")
            }
            _ = run(["kill-server"])
            usleep(500_000)
        }
    }

    /// The screen as text, one line per row.
    var screen: String {
        output(["capture-pane", "-p", "-t", name])
    }

    /// Waits until the screen satisfies `predicate`; returns that screen, or nil after `timeout`.
    func waitForScreen(timeout: Double = 10, _ predicate: (String) -> Bool) -> String? {
        let deadline = Date(timeIntervalSinceNow: TestTime.seconds(timeout))
        while Date() < deadline {
            let text = screen
            if predicate(text) { return text }
            usleep(100_000)
        }
        return nil
    }

    /// Types keys (tmux key names: `Enter`, `BTab`, `q`, …), pausing briefly after each.
    func send(_ keys: String...) {
        for key in keys {
            _ = run(["send-keys", "-t", name, key])
            usleep(150_000)
        }
    }

    /// Types `text` as it is (`send-keys -l`: no key names), e.g. a terminal's raw mouse report; text starting
    /// with `-` too (after `--`, tmux does not read it as options).
    func sendLiteral(_ text: String) {
        _ = run(["send-keys", "-t", name, "-l", "--", text])
        usleep(150_000)
    }

    /// Waits until the command ended and the session is gone.
    func waitForExit(timeout: Double = 10) -> Bool {
        let deadline = Date(timeIntervalSinceNow: TestTime.seconds(timeout))
        while Date() < deadline {
            if run(["has-session", "-t", name]) != 0 { return true }
            usleep(100_000)
        }
        return false
    }

    /// Ends the session and its server.
    func kill() {
        _ = run(["kill-server"])
    }

    /// Command lines of running processes that mention `text`.
    static func processes(matching text: String) -> [String] {
        shell("ps -eo args 2>/dev/null").output.split(separator: "\n").map(String.init)
            .filter { $0.contains(text) && !$0.contains("ps -eo") }
    }

    /// The command line `tmux -L NAME ARGUMENTS`, each argument quoted for the shell, bounded in time (a tmux
    /// client waiting on a server that never answers must fail the test, not hold the suite).
    private func tmux(_ arguments: [String]) -> String {
        "/usr/bin/timeout 60 /usr/bin/tmux -L " + Self.quote(name) + " " + arguments.map(Self.quote).joined(separator: " ")
    }

    /// Runs `tmux ARGUMENTS` on this session's server and returns its exit status. Uses popen/pclose rather than
    /// Foundation's `Process`, whose exit monitoring can miss the tmux client's exit when the client starts the
    /// tmux server.
    @discardableResult
    private func run(_ arguments: [String]) -> Int32 {
        Self.shell(tmux(arguments) + " >/dev/null 2>&1").status
    }

    private func output(_ arguments: [String]) -> String {
        Self.shell(tmux(arguments) + " 2>/dev/null").output
    }

    private func shell(_ command: String) -> (status: Int32, output: String) { Self.shell(command) }

    private static func shell(_ command: String) -> (status: Int32, output: String) {
        guard let pipe = popen(command, "r") else { return (-1, "") }
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, pipe)
            if count <= 0 { break }
            data.append(contentsOf: buffer[0..<count])
        }
        let status = pclose(pipe)
        return (status == -1 ? -1 : (status >> 8) & 0xFF, String(decoding: data, as: UTF8.self))
    }

    private static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

struct TmuxError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
