import Foundation

/// A program started by a test, with its standard output and error captured line by line. Killed (SIGKILL) when
/// released if it is still running, so no test leaves a process behind.
///
/// Threading: any thread (the captured lines are behind a condition; two threads of its own read the pipes); one
/// test owns it.
package final class ChildProcess: @unchecked Sendable {  // mutable state guarded by `condition`
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private let condition = NSCondition()
    private var outLines: [String] = []
    private var errLines: [String] = []
    private var outBuffer = Data()
    private var errBuffer = Data()
    /// How many of the two output pipes have reached their end (the child, and any child of its, closed them).
    private var pipesEnded = 0

    /// Starts `executable` (a path) with `arguments` and extra `environment` variables.
    package init(_ executable: String, _ arguments: [String] = [], environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        read(output.fileHandleForReading, error: false)
        read(errors.fileHandleForReading, error: true)
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// The process id.
    package var pid: Int32 { process.processIdentifier }

    /// Lines written to standard output so far.
    package var stdoutLines: [String] {
        condition.lock(); defer { condition.unlock() }
        return outLines
    }

    /// Lines written to standard error so far.
    package var stderrLines: [String] {
        condition.lock(); defer { condition.unlock() }
        return errLines
    }

    /// Waits until a line on standard output (from line number `after` on) satisfies `predicate`; returns it, or
    /// nil after `timeout` (stretched by `TestTime.scale`).
    @discardableResult
    package func waitForLine(timeout: Double = 10, stderr: Bool = false, after: Int = 0,
                     _ predicate: (String) -> Bool) -> String? {
        let deadline = Date(timeIntervalSinceNow: TestTime.seconds(timeout))
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let line = (stderr ? errLines : outLines).dropFirst(after).first(where: predicate) { return line }
            if !condition.wait(until: deadline) { return nil }
        }
    }

    /// Writes `text` to the child's standard input.
    package func write(_ text: String) {
        input.fileHandleForWriting.write(Data(text.utf8))
    }

    /// Closes the child's standard input.
    package func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    /// Sends a signal.
    package func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// Waits for the process to exit (up to `timeout`, stretched by `TestTime.scale`); returns its status, or nil if
    /// it is still running.
    @discardableResult
    package func waitForExit(timeout: Double = 20) -> Int32? {
        let deadline = Date(timeIntervalSinceNow: TestTime.seconds(timeout))
        while process.isRunning && Date() < deadline { usleep(10_000) }
        guard !process.isRunning else { return nil }
        // Everything it wrote is read once both pipes have ended. Bounded, and short: a process another test starts
        // at the same moment can inherit the pipes' write ends and hold them open until it exits.
        let drained = Date(timeIntervalSinceNow: TestTime.seconds(0.5))
        condition.lock()
        while pipesEnded < 2 && condition.wait(until: drained) {}
        condition.unlock()
        return process.terminationStatus
    }

    /// Reads `handle` to its end on a thread of its own, with blocking reads. Not `readabilityHandler`: its dispatch
    /// source could still be registered when the pipe is closed (a child released before its pipes ended, which a
    /// grandchild holding them open makes common), and libdispatch then crashed the test process. The thread keeps
    /// the handle, so the pipe is closed only after its end was read.
    private func read(_ handle: FileHandle, error: Bool) {
        let thread = Thread { [weak self] in
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = chunk.withUnsafeMutableBytes { Glibc.read(handle.fileDescriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                self?.received(Data(chunk[0..<count]), error: error)
            }
            self?.ended(error: error)
        }
        thread.name = "child-process-reader"
        thread.start()
    }

    /// The end of a pipe: a last line without a newline is a line too.
    private func ended(error: Bool) {
        condition.lock()
        let rest = error ? errBuffer : outBuffer
        if !rest.isEmpty {
            let line = String(decoding: rest, as: UTF8.self)
            if error { errLines.append(line); errBuffer = Data() } else { outLines.append(line); outBuffer = Data() }
        }
        pipesEnded += 1
        condition.broadcast()
        condition.unlock()
    }

    private func received(_ data: Data, error: Bool) {
        condition.lock()
        if error { errBuffer.append(data) } else { outBuffer.append(data) }
        var buffer = error ? errBuffer : outBuffer
        while let newline = buffer.firstIndex(of: 0x0A) {
            let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
            if error { errLines.append(line) } else { outLines.append(line) }
            buffer.removeSubrange(buffer.startIndex...newline)
        }
        if error { errBuffer = buffer } else { outBuffer = buffer }
        condition.broadcast()
        condition.unlock()
    }
}
