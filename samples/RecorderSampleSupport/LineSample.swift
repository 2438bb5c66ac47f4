import Foundation

/// What a `Recorder`-based sample is — its name, what it shows, its command words — and its command line, read
/// before the sample makes its store and recorder: `--help` and a mistyped option are answered before the recorder
/// connects, so they never record an empty session.
///
/// Threading: a value; any thread.
package struct LineSample: Sendable {
    /// The options a `LineSampleRunner` understands.
    package struct Options: Sendable {
        /// `--script FILE`: run the commands in FILE, then exit.
        package fileprivate(set) var script: String?
        /// `--stay` (with `--script`): keep serving the daemon's commands after the script.
        package fileprivate(set) var stay = false
    }

    /// The executable's name, for `--help`.
    package let name: String
    /// One sentence saying what the sample shows.
    package let summary: String
    /// One line per command word.
    package let commandHelp: [String]

    /// A sample called `name`.
    package init(name: String, summary: String, commandHelp: [String]) {
        self.name = name
        self.summary = summary
        self.commandHelp = commandHelp
    }

    /// Reads `arguments` (without the program name): prints the usage and exits 0 for `--help`, prints the error
    /// and exits 2 for a bad option, else returns the options. Call it before making the store and its recorder.
    package func options(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Options {
        var options = Options()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "-h", "--help":
                print(usage)
                exit(0)
            case "--script":
                guard let path = rest.popFirst() else { fail("--script needs a file") }
                options.script = path
            case "--stay":
                options.stay = true
            default:
                fail("unknown option '\(argument)'")
            }
        }
        if options.stay && options.script == nil { fail("--stay goes with --script") }
        return options
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

    /// Writes `name: message` on standard error.
    func printError(_ message: String) {
        FileHandle.standardError.write(Data("\(name): \(message)\n".utf8))
    }
}
