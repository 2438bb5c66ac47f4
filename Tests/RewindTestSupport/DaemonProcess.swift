import Foundation
import RewindDaemon
import RewindSessionFile

/// The daemon under test as a real process: `rewind serve --headless` on a loopback port, recording into a data
/// directory of its own (a new temporary one unless given). The in-process daemon under test is ``DaemonHarness``;
/// this one is for what needs a process: signals, restarts, `LD_PRELOAD`, the command line's own options and output.
///
/// Its keepalive and takeover-probe clocks are the daemon's defaults stretched by ``TestTime/scale``, as
/// ``DaemonHarness`` stretches them (equal to the defaults when the scale is 1).
///
/// Threading: not thread-safe; one test starts, restarts and stops it from one thread (``process`` itself may be
/// read from any thread).
package final class DaemonProcess {
    /// The port it listens on.
    package let port: Int
    /// The directory it records into (`--data`).
    package let dataDirectory: URL
    /// Variables the daemon runs with besides the test process's own (a frozen disk's `LD_PRELOAD`, a token).
    package let environment: [String: String]
    /// Options given to `rewind serve` after the port, data directory and clocks (`--max-backlog 64`, …).
    package let options: [String]
    /// How long (seconds, stretched by ``TestTime/scale``) a start waits for the daemon to say it listens; nil: a
    /// start does not wait (the test waits for what it checks itself).
    package let startTimeout: Double?
    /// The running process (a new one after ``restart()``).
    package private(set) var process: ChildProcess

    /// The `REWIND_URL` apps use to reach this daemon.
    package var url: String { "ws://127.0.0.1:\(port)" }

    /// Starts `rewind serve --headless --port PORT --data DIRECTORY` with `options` and `environment`, and waits up to
    /// `startTimeout` seconds (unless nil) until it listens; throws when it does not, with what it wrote.
    package init(port: Int = FreePort.next(), dataDirectory: URL? = nil, options: [String] = [],
                environment: [String: String] = [:], startTimeout: Double? = 10) throws {
        self.port = port
        self.dataDirectory = dataDirectory ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("rewind-faults-\(UUID().uuidString)")
        self.environment = environment
        self.options = options
        self.startTimeout = startTimeout
        process = try Self.launch(port: port, data: self.dataDirectory, options: options, environment: environment,
                                  startTimeout: startTimeout)
    }

    /// Starts a new daemon process on the same port, data directory, options and environment (after a kill).
    package func restart() throws {
        process = try Self.launch(port: port, data: dataDirectory, options: options, environment: environment,
                                  startTimeout: startTimeout)
    }

    private static func launch(port: Int, data: URL, options: [String], environment: [String: String],
                               startTimeout: Double?) throws -> ChildProcess {
        let clocks = ["--keepalive", "\(TestTime.seconds(DaemonConfiguration().keepaliveInterval))",
                      "--takeover-probe", "\(TestTime.seconds(DaemonConfiguration().takeoverProbeTimeout))"]
        let process = try ChildProcess(Executables.path("rewind"),
                                       ["serve", "--headless", "--port", "\(port)", "--data", data.path]
                                           + clocks + options,
                                       environment: environment)
        if let startTimeout,
           process.waitForLine(timeout: startTimeout, stderr: true, { $0.contains("listening on") }) == nil {
            throw DaemonError("the daemon did not start: \(process.stderrLines)")
        }
        return process
    }

    /// The sessions of the app named `app` in the data directory, read as another process would.
    package func sessions(app: String) throws -> [SessionMetadata] {
        try SessionStore(directory: dataDirectory).listSessions().filter { $0.appName == app }
    }

    /// Kills the process (SIGKILL) and waits up to 5 s for it to exit; the data directory stays.
    package func kill() {
        process.signal(SIGKILL)
        process.waitForExit(timeout: 5)
    }

    /// Kills the process and removes the data directory.
    package func tearDown() {
        kill()
        try? FileManager.default.removeItem(at: dataDirectory)
    }
}
