import Foundation
import RewindCommandLine

/// One run of the `rewind` command to its end: the tests' command-line runner — in this process
/// (``inProcess(_:input:)``: `RewindCLI.run` with in-memory streams) for commands that end on their own and touch
/// nothing of the process (`sessions`, `state`, `diff`, `history`, `export`, `import`, `jump`, `dispatch`…), or as a
/// child process for what needs one (a server, `tail`, signals, an environment, a pipe). Its standard input gets
/// `input` (when given) and is then closed, so a command that reads it does not wait.
///
/// Threading: an immutable value; any thread.
package struct RewindRun: Sendable {
    /// The exit status; nil when the command had not exited within the timeout (it is then killed).
    package let status: Int32?
    /// The lines it wrote to standard output.
    package let stdout: [String]
    /// The lines it wrote to standard error.
    package let stderr: [String]

    /// Standard error as one text, its lines joined by newlines.
    package var stderrText: String { stderr.joined(separator: "\n") }

    private init(status: Int32?, stdout: [String], stderr: [String]) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }

    /// Runs `rewind ARGUMENTS` in this process, on the calling thread, with `input` as standard input.
    package static func inProcess(_ arguments: [String], input: String = "") -> RewindRun {
        let streams = CommandStreams(input: Array(input.utf8))
        let status = RewindCLI.run(arguments, streams: streams)
        func lines(_ text: String) -> [String] {
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            return lines
        }
        return RewindRun(status: status, stdout: lines(streams.output), stderr: lines(streams.errorOutput))
    }

    /// Runs `rewind ARGUMENTS` (the package's built executable) with extra `environment` variables, writes `input`
    /// to it, and waits up to `timeout` seconds (stretched by ``TestTime/scale``) for it to exit.
    package init(_ arguments: [String], input: String? = nil, environment: [String: String] = [:],
                timeout: Double = 20) throws {
        let process = try ChildProcess(Executables.path("rewind"), arguments, environment: environment)
        if let input { process.write(input) }
        process.closeInput()
        status = process.waitForExit(timeout: timeout)
        stdout = process.stdoutLines
        stderr = process.stderrLines
    }
}
