import Foundation

/// One of Rewind's programs (`rewind`, `stress`) run as a child process, with its standard output and error
/// collected line by line, and its processor time read from `/proc` while it runs.
///
/// Threading: the collected lines are guarded by a lock; every method may be called from any thread.
final class ChildProgram: @unchecked Sendable {
    private let process = Process()
    private let lock = NSLock()
    private var stdoutText = ""
    private var stderrText = ""

    /// Starts `path` with `arguments`, the current environment with `environment` added.
    init(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = Pipe()
        out.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            self?.lock.withLock { self?.stdoutText += String(decoding: data, as: UTF8.self) }
        }
        err.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            self?.lock.withLock { self?.stderrText += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
    }

    /// The process identifier.
    var pid: Int32 { process.processIdentifier }

    /// The lines written to standard error so far.
    var stderrLines: [String] { lock.withLock { stderrText.split(separator: "\n").map(String.init) } }

    /// Waits until a line of standard error satisfies `predicate`, up to `timeout` seconds; returns it.
    func waitForStderrLine(timeout: Double, _ predicate: (String) -> Bool) -> String? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            if let line = stderrLines.first(where: predicate) { return line }
            if !process.isRunning { return stderrLines.first(where: predicate) }
            usleep(10_000)
        }
        return nil
    }

    /// Waits for the process to end, up to `timeout` seconds (then kills it); returns its exit status.
    @discardableResult
    func waitForExit(timeout: Double) -> Int32 {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        usleep(20_000)  // the last lines of its output
        return process.terminationStatus
    }

    /// Stops the process (SIGTERM, then SIGKILL after 5 s).
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        waitForExit(timeout: 5)
    }

    /// The processor time the process has used so far (user and system), seconds; nil where `/proc` is not there.
    var processorSeconds: Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        // The fields after the command name: state is field 3, utime 14 and stime 15 of the whole line.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
