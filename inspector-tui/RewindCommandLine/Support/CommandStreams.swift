import Foundation

/// The standard streams of one run of the command line: the process's own when `rewind` runs as a program
/// (``process``), or in memory when a test or a host program runs a command in process
/// (``RewindCLI/run(_:streams:)``, as swift-argument-parser's own tests run commands).
///
/// Commands write through ``current`` (the streams of the run they belong to), never to `FileHandle.standardOutput`
/// directly. Task-local values do not follow work handed to another thread: a command whose output comes from
/// another thread (`rewind tail`'s events) reads ``current`` first and hands that on.
///
/// What only a terminal can do — the timeline, a replay's step prompt, Ctrl-C — still uses the process's own
/// terminal; in memory, such commands are not run.
///
/// Threading: any thread; the in-memory buffers are guarded by a lock.
package final class CommandStreams: @unchecked Sendable {  // `outputBytes`, `errorBytes`, `input` guarded by `lock`
    /// The process's standard input, output and error.
    package static let process = CommandStreams(isProcess: true, input: [])

    /// The streams of the command running on this task (the process's own unless a run set others).
    @TaskLocal static var current: CommandStreams = .process

    /// Whether these are the process's own streams.
    let isProcess: Bool
    private let lock = NSLock()
    private var outputBytes: [UInt8] = []
    private var errorBytes: [UInt8] = []
    private var input: [UInt8]

    /// In-memory streams: standard input holds `input`; what the command writes is kept for ``output`` and
    /// ``errorOutput``.
    package convenience init(input: [UInt8] = []) {
        self.init(isProcess: false, input: input)
    }

    private init(isProcess: Bool, input: [UInt8]) {
        self.isProcess = isProcess
        self.input = input
    }

    /// Everything written to standard output so far (in-memory streams; empty for ``process``).
    package var output: String { lock.withLock { String(decoding: outputBytes, as: UTF8.self) } }

    /// Everything written to standard error so far (in-memory streams; empty for ``process``).
    package var errorOutput: String { lock.withLock { String(decoding: errorBytes, as: UTF8.self) } }

    /// Writes `line` and a line break to standard output (buffered, as `print` writes).
    func printLine(_ line: String) {
        write(line + "\n")
    }

    /// Writes `text` to standard output as it is (buffered, as `print` writes).
    func write(_ text: String) {
        if isProcess {
            print(text, terminator: "")
        } else {
            lock.withLock { outputBytes.append(contentsOf: text.utf8) }
        }
    }

    /// Writes `text` to standard error as it is (unbuffered; what was printed before is flushed first, so that a
    /// terminal showing both shows them in order).
    func writeError(_ text: String) {
        if isProcess {
            fflush(nil)
            FileHandle.standardError.write(Data(text.utf8))
        } else {
            lock.withLock { errorBytes.append(contentsOf: text.utf8) }
        }
    }

    /// Writes `line` and a line break to standard output at once, for commands that stream (`rewind tail`); returns
    /// false when the reader went away (`| head`, `| jq` stopped with Ctrl-C), so that the command can end quietly,
    /// as a closed pipe ends any Unix filter, instead of crashing.
    ///
    /// The daemon connection's library ignores `SIGPIPE`, so a write to a closed pipe fails with `EPIPE` rather
    /// than ending the process; `FileHandle.write(_:)` would trap on that error, so its throwing form is used.
    func writeLineIfRead(_ line: String) -> Bool {
        guard isProcess else {
            printLine(line)
            return true
        }
        fflush(nil)
        do {
            try FileHandle.standardOutput.write(contentsOf: Data((line + "\n").utf8))
            return true
        } catch {
            return false
        }
    }

    /// All of standard input (``process``: read until its end; in memory: the input given, once).
    func readInput() -> [UInt8] {
        guard !isProcess else { return [UInt8](FileHandle.standardInput.readDataToEndOfFile()) }
        return lock.withLock {
            defer { input = [] }
            return input
        }
    }

    /// Whether standard error is a terminal (never for in-memory streams).
    var errorIsTerminal: Bool { isProcess && isatty(2) == 1 }
}
