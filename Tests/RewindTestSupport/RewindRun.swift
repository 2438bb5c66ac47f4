import Foundation

/// One run of the `rewind` command as a child process, to its end: the tests' command-line runner. Its standard
/// input gets `input` (when given) and is then closed, so a command that reads it does not wait.
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
