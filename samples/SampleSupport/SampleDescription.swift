import Foundation
import RewindInspector

/// What a sample is — its name, what it shows, its command words and its demo — and its command line, read before
/// the sample makes its store: `--help` and a mistyped option are answered before the store's inspector connects,
/// so they never record an empty session.
///
/// Threading: a value; any thread.
package struct SampleDescription: Sendable {
    /// The executable's name, for `--help`.
    package let name: String
    /// One sentence saying what the sample shows.
    package let summary: String
    /// One line per command word (`"add N    adds N to the count"`).
    package let commandHelp: [String]
    /// The commands `--demo` loops over.
    package let demoScript: [String]

    /// A sample called `name`.
    package init(name: String, summary: String, commandHelp: [String], demoScript: [String]) {
        self.name = name
        self.summary = summary
        self.commandHelp = commandHelp
        self.demoScript = demoScript
    }

    /// Reads `arguments` (without the program name): prints the usage and exits 0 for `--help`, prints the error
    /// and exits 2 for a bad option, else returns the options. Call it before making the store.
    package func options(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> SampleOptions {
        let options: SampleOptions
        do {
            options = try SampleOptions(arguments)
        } catch {
            printError("\(error)\nRun '\(name) --help' for usage.")
            exit(2)
        }
        if options.help {
            print(usage)
            exit(0)
        }
        return options
    }

    /// The inspector's configuration for this sample: the environment's (`REWIND_URL`, …), and a `--demo` that
    /// pauses while someone travels in time from the timeline (``TimeTravelPause``).
    package func inspectorConfiguration() -> InspectorConfiguration {
        var configuration = InspectorConfiguration.fromEnvironment()
        configuration.onTimeTravel = { _ in TimeTravelPause.shared.travelled() }
        return configuration
    }

    /// The command words, for `--help` and the interactive `help`.
    var commandList: String {
        (["Commands:"] + commandHelp.map { "  " + $0 }
            + ["  {JSON}     any action in its Codable JSON form",
               "  capture [REASON]  write the last actions kept (REWIND_CAPTURE_RECENT) to a capture file", "  quit"])
            .joined(separator: "\n")
    }

    /// What `--help` prints.
    var usage: String {
        """
        \(name) — \(summary)

        Usage:
          \(name)                      interactive: commands on standard input
          \(name) --script FILE [--stay]  run the commands in FILE (then keep serving with --stay)
          \(name) --demo [--pace S] [--demo-loops N]  loop a demo sequence at a human pace
          \(name) --help

        \(commandList)

        The state is printed as one line of JSON after every change.
        Environment: REWIND_URL (default ws://127.0.0.1:7723), REWIND_TOKEN, REWIND_DISABLED=1,
        REWIND_CAPTURE_DIR=DIR (record offline there while no daemon is reachable), REWIND_CAPTURE_RECENT=N.
        """
    }

    /// Writes `name: message` on standard error.
    func printError(_ message: String) {
        FileHandle.standardError.write(Data("\(name): \(message)\n".utf8))
    }
}
