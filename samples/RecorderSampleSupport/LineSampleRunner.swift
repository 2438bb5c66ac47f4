import Foundation
import RewindInspector

/// Runs a sample whose store is not a `Rewind.Store` (it is recorded through `Recorder`), the way the other
/// samples run:
///
/// - interactive (the default): commands on standard input, one per line, until it closes (this is how
///   `rewind verify` drives the app: it serves the daemon's commands meanwhile);
/// - `--script FILE`: the commands in FILE (blank lines and `#` comments skipped), then exit;
/// - `--stay` (with `--script`): keep serving the daemon's commands after the script until standard input closes;
/// - `--help`.
///
/// The sample prints its state as one line of JSON after every change (see ``JSONLinePrinter``).
///
/// Threading: main actor; standard input is read on a thread of its own so the main actor stays free to apply the
/// daemon's commands.
@MainActor
package struct LineSampleRunner {
    /// Runs one command line; throws a sentence when the line is not a command.
    package typealias Execute = @MainActor (String) async throws -> Void

    private let sample: LineSample
    private let options: LineSample.Options
    private let execute: Execute

    /// A runner for `sample`, in the mode `options` chose (read with `sample.options()` before the store and its
    /// recorder were made).
    package init(_ sample: LineSample, options: LineSample.Options, execute: @escaping Execute) {
        self.sample = sample
        self.options = options
        self.execute = execute
    }

    /// Runs the chosen mode, waits (up to 5 s) for the recorder to deliver what it recorded, and exits.
    package func run() async -> Never {
        var status: Int32 = 0
        if let script = options.script {
            status = await runScript(script)
            if status == 0 && options.stay { for await _ in Self.standardInputLines() {} }
        } else {
            for await line in Self.standardInputLines() {
                let command = line.trimmingCharacters(in: .whitespaces)
                if command.isEmpty { continue }
                if command == "quit" { break }
                _ = await run(command, context: "input")
            }
        }
        await Task.detached { _ = Inspector.waitUntilDelivered(timeout: 5) }.value
        exit(status)
    }

    private func runScript(_ path: String) async -> Int32 {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            printError("cannot read script '\(path)'")
            return 1
        }
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let command = line.trimmingCharacters(in: .whitespaces)
            if command.isEmpty || command.hasPrefix("#") { continue }
            if command == "quit" { break }
            if !(await run(command, context: "\(path):\(number + 1)")) { return 1 }
        }
        return 0
    }

    private func run(_ command: String, context: String) async -> Bool {
        do {
            try await execute(command)
            await Task.yield()
            return true
        } catch {
            printError("\(context): \(error)")
            return false
        }
    }

    private func printError(_ message: String) {
        sample.printError(message)
    }

    /// Lines of standard input, read on a background thread; the stream finishes at end of input.
    private static func standardInputLines() -> AsyncStream<String> {
        AsyncStream { continuation in
            let thread = Thread {
                while let line = readLine(strippingNewline: true) { continuation.yield(line) }
                continuation.finish()
            }
            thread.name = "sample.stdin"
            thread.start()
        }
    }
}
