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
public struct LineSampleRunner {
    /// Runs one command line; throws a sentence when the line is not a command.
    public typealias Execute = @MainActor (String) async throws -> Void

    private let name: String
    private let summary: String
    private let commandHelp: [String]
    private let execute: Execute

    /// A runner for a sample called `name` (one-line `summary`, one line per command in `commandHelp`).
    public init(name: String, summary: String, commandHelp: [String], execute: @escaping Execute) {
        self.name = name
        self.summary = summary
        self.commandHelp = commandHelp
        self.execute = execute
    }

    /// Parses `arguments` (without the program name), runs the chosen mode, waits (up to 5 s) for the recorder to
    /// deliver what it recorded, and exits.
    public func run(arguments: [String] = Array(CommandLine.arguments.dropFirst())) async -> Never {
        var script: String?
        var stay = false
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "-h", "--help":
                print(usage)
                exit(0)
            case "--script":
                guard let path = rest.popFirst() else { fail("--script needs a file") }
                script = path
            case "--stay":
                stay = true
            default:
                fail("unknown option '\(argument)'")
            }
        }
        if stay && script == nil { fail("--stay goes with --script") }
        var status: Int32 = 0
        if let script {
            status = await runScript(script)
            if status == 0 && stay { for await _ in Self.standardInputLines() {} }
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

    private var usage: String {
        """
        \(name) — \(summary)

        Usage:
          \(name)                         interactive: commands on standard input
          \(name) --script FILE [--stay]  run the commands in FILE (then keep serving with --stay)
          \(name) --help

        Commands:
        \(commandHelp.map { "  " + $0 }.joined(separator: "\n"))
          quit

        The state is printed as one line of JSON after every change.
        Environment: REWIND_URL (default ws://127.0.0.1:7723), REWIND_TOKEN, REWIND_DISABLED=1.
        """
    }

    private func fail(_ message: String) -> Never {
        printError("\(message)\nRun '\(name) --help' for usage.")
        exit(2)
    }

    private func printError(_ message: String) {
        FileHandle.standardError.write(Data("\(name): \(message)\n".utf8))
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
