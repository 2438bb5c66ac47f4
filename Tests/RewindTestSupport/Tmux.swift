import Foundation

/// A tmux session running one command in a window of 120×36 cells by default; the test ends it with ``kill()``.
///
/// Threading: not thread-safe; one test drives one session from one thread. Each session runs in a tmux server of
/// its own, so sessions of tests running in parallel do not meet.
package final class Tmux {
    /// Whether tmux is installed (`/usr/bin/tmux`): the suites that need it are enabled only then.
    package static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") }

    /// The session's name, also the name of its own tmux server's socket (`tmux -L`): each test's screen runs in a
    /// server of its own, so one test ending its last session (which stops a shared server) cannot make another
    /// test's `new-session` fail while it connects.
    private let name = "rewind-test-\(UUID().uuidString.prefix(8))"

    /// Starts `command` (a shell command line, run with `TERM=tmux-256color`) in a new detached session of
    /// `width`×`height` cells; throws ``TmuxError`` when tmux cannot start it (after three tries).
    package init(command: String, width: Int = 120, height: Int = 36) throws {
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
    package var screen: String {
        output(["capture-pane", "-p", "-t", name])
    }

    /// Waits until the screen satisfies `predicate`; returns that screen, or nil after `timeout`.
    package func waitForScreen(timeout: Double = 10, _ predicate: (String) -> Bool) -> String? {
        let deadline = Date(timeIntervalSinceNow: TestTime.seconds(timeout))
        while Date() < deadline {
            let text = screen
            if predicate(text) { return text }
            usleep(100_000)
        }
        return nil
    }

    /// Types keys (tmux key names: `Enter`, `BTab`, `q`, …), pausing briefly after each.
    package func send(_ keys: String...) {
        for key in keys {
            _ = run(["send-keys", "-t", name, key])
            usleep(150_000)
        }
    }

    /// Types `text` as it is (`send-keys -l`: no key names), e.g. a terminal's raw mouse report; text starting
    /// with `-` too (after `--`, tmux does not read it as options).
    package func sendLiteral(_ text: String) {
        _ = run(["send-keys", "-t", name, "-l", "--", text])
        usleep(150_000)
    }

    /// Waits until the command ended and the session is gone.
    package func waitForExit(timeout: Double = 10) -> Bool {
        let deadline = Date(timeIntervalSinceNow: TestTime.seconds(timeout))
        while Date() < deadline {
            if run(["has-session", "-t", name]) != 0 { return true }
            usleep(100_000)
        }
        return false
    }

    /// Ends the session and its server.
    package func kill() {
        _ = run(["kill-server"])
    }

    /// Command lines of running processes that mention `text`.
    package static func processes(matching text: String) -> [String] {
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

/// Why a ``Tmux`` session could not be started.
package struct TmuxError: Error, CustomStringConvertible {
    /// What tmux said.
    package let description: String
    /// An error saying `description`.
    package init(_ description: String) { self.description = description }
}
