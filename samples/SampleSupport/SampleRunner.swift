import Foundation
import Rewind
import RewindInspector

/// Runs a sample app in one of its modes, the same way for every sample:
///
/// - interactive (the default): commands typed on standard input, one per line;
/// - `--script FILE`: the commands in FILE (blank lines and `#` comments skipped), then exit;
/// - `--demo`: a realistic sequence of commands looped at a human pace (`--pace SECONDS`, default 0.8;
///   `--demo-loops N` to stop after N loops), needing no terminal;
/// - `--stay` (with `--script`): keep running after the script, serving the daemon's commands, until standard
///   input closes or the process is terminated;
/// - `--help`.
///
/// A command is either one of the sample's words (see its `--help`) or an action written as JSON in the action's
/// `Codable` form (`{"add":{"_0":5}}`). The state is printed as one line of JSON after every change, whatever caused
/// it (a command, an effect, or the daemon's `jump`), so scripts and tests can follow it.
///
/// Threading: main actor, like the store.
@MainActor
package struct SampleRunner<State: Codable & Sendable, Action: Codable & Sendable> {
    /// Turns one command line into the action to dispatch; nil means the command did its work itself.
    package typealias Parse = @MainActor (String) throws(SampleError) -> Action?

    private let sample: SampleDescription
    private let options: SampleOptions
    private let store: Store<State, Action>
    private let parse: Parse
    /// Where the sample made this runner (its `main.swift`): the source of the demo's actions.
    private let origin: SourceLocation

    /// A runner for `store`, in the mode `options` chose (read with `sample.options()` before the store was made).
    /// - Parameters:
    ///   - parse: Turns a command word line into an action.
    ///   - file, line: the caller's location, the source the timeline shows for the demo's actions (a script's and
    ///     typed actions show the script's line, or `stdin:N`: the command that caused them).
    package init(_ sample: SampleDescription, options: SampleOptions, store: Store<State, Action>,
                file: StaticString = #fileID, line: UInt = #line, parse: @escaping Parse) {
        origin = SourceLocation(file: file, line: line)
        self.sample = sample
        self.options = options
        self.store = store
        self.parse = parse
    }

    /// Runs the chosen mode, waits (up to 5 s) for the inspector to deliver what it recorded, and exits the process.
    package func run() async -> Never {
        let printer = StatePrinter<State>()
        let subscription = store.subscribe(deduplicate: false) { state in printer.print(state) }
        defer { subscription.cancel() }

        var status: Int32 = 0
        if let script = options.script {
            status = await runScript(script)
            if status == 0 && options.stay { await serveUntilInputCloses() }
        } else if options.demo {
            await runDemo(loops: options.demoLoops, pace: options.pace)
        } else {
            await runInteractive()
        }
        await waitForDelivery()
        exit(status)
    }

    // MARK: - Modes

    private func runScript(_ path: String) async -> Int32 {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            printError("cannot read script '\(path)'")
            return 1
        }
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let command = line.trimmingCharacters(in: .whitespaces)
            if command.isEmpty || command.hasPrefix("#") { continue }
            if command == "quit" { break }
            let source = SourceLocation(file: (path as NSString).lastPathComponent, line: UInt(number + 1))
            if !(await execute(command, context: "\(path):\(number + 1)", source: source)) { return 1 }
        }
        return 0
    }

    private func runDemo(loops: Int?, pace: Double) async {
        var loop = 0
        script: while loops.map({ loop < $0 }) ?? true {
            for command in sample.demoScript {
                if await pausedForTimeTravel() { continue script }
                _ = await execute(command, context: "demo", source: origin)
                try? await Task.sleep(nanoseconds: UInt64(pace * 1e9))
            }
            loop += 1
        }
    }

    private func runInteractive() async {
        let interactive = isatty(0) == 1
        if interactive { print("\(sample.name): type a command ('help' lists them, 'quit' ends)") }
        var number: UInt = 0
        for await line in StandardInputLines.stream() {
            number += 1
            let command = line.trimmingCharacters(in: .whitespaces)
            if command.isEmpty { continue }
            if command == "quit" { break }
            if command == "help" {
                print(sample.commandList)
                continue
            }
            _ = await execute(command, context: "input", source: SourceLocation(file: "stdin", line: number))
        }
    }

    /// Waits while the timeline's last jump or replay is recent (``TimeTravelPause``), saying so once; true when it
    /// waited, and the demo then starts its script over from the first step.
    private func pausedForTimeTravel() async -> Bool {
        let pause = TimeTravelPause.shared
        guard pause.remaining > 0 else { return false }
        printError("demo: paused — the timeline put a recorded state in place; the demo starts over "
            + "\(Int(pause.quietSeconds)) s after the last jump or replay")
        while pause.remaining > 0 {
            try? await Task.sleep(nanoseconds: UInt64(min(pause.remaining, 0.5) * 1e9) + 1_000_000)
        }
        return true
    }

    private func serveUntilInputCloses() async {
        for await _ in StandardInputLines.stream() {}
    }

    // MARK: - Commands

    /// Runs one command; `source` is what caused it (the script's line, `stdin:N`), the source column's text.
    private func execute(_ command: String, context: String, source: SourceLocation) async -> Bool {
        if command == "capture" || command.hasPrefix("capture ") {
            await capture(reason: String(command.dropFirst("capture".count)).trimmingCharacters(in: .whitespaces))
            return true
        }
        do {
            if let action = try action(for: command) { store.dispatch(action, source: source) }
            await Task.yield()
            return true
        } catch {
            printError("\(context): \(error)")
            return false
        }
    }

    private func action(for command: String) throws(SampleError) -> Action? {
        if command.hasPrefix("{") || command.hasPrefix("\"") {
            do {
                return try JSONDecoder().decode(Action.self, from: Data(command.utf8))
            } catch {
                throw SampleError("'\(command)' is not one of this sample's actions: \(error)")
            }
        }
        return try parse(command)
    }

    /// `capture [REASON]`: what a "report a bug" button does — the last actions the inspector kept
    /// (`REWIND_CAPTURE_RECENT`) written to a capture file, whose path is printed on standard error.
    private func capture(reason: String) async {
        let reason = reason.isEmpty ? "capture command" : reason
        let files = await Task.detached { Inspector.captureNow(reason: reason) }.value
        for file in files { printError("captured the last actions into \(file.path)") }
        if files.isEmpty { printError("nothing captured (set REWIND_CAPTURE_RECENT=N to keep the last N actions)") }
    }

    private func waitForDelivery() async {
        await Task.detached { _ = Inspector.waitUntilDelivered(timeout: 5) }.value
    }

    private func printError(_ message: String) {
        sample.printError(message)
    }
}
