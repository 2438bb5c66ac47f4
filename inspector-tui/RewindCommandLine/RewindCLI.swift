import ArgumentParser
import Foundation

/// The `rewind` command line as a library: the `rewind` executable is `RewindCLI.main()`, and tests run its commands
/// in process through ``run(_:streams:)`` with in-memory streams, as swift-argument-parser tests its own commands.
///
/// The commands themselves are ``RewindCommand``'s subcommands (one file each under `Commands/`).
///
/// Threading: ``main()`` on the main thread of the `rewind` process. ``run(_:streams:)`` on any thread; the command
/// runs on the calling thread until it ends (the commands a test runs in process end on their own: the timeline,
/// `serve` and `tail` are for a process).
package enum RewindCLI {
    /// Runs `rewind` with the process's arguments and streams, then exits with the command's status.
    package static func main() -> Never {
        let status = run(Array(CommandLine.arguments.dropFirst()), streams: .process)
        fflush(nil)
        exit(status)
    }

    /// Runs `rewind ARGUMENTS` (without the program name) with `streams` and returns its exit status: 0 when it
    /// did what was asked (and for `--help` and `--version`), 1 for a command's error (one `Error: …` line on
    /// standard error), 64 for a usage error.
    ///
    /// Before the argument parser, a mistyped subcommand is refused with a suggestion (``CommandSuggestion``), an
    /// event number below 0 is named as such (``NegativeEventNumber``), and an option that neither `rewind` nor its
    /// default subcommand knows is named with the commands (the parser would print `serve`'s usage).
    package static func run(_ arguments: [String], streams: CommandStreams) -> Int32 {
        CommandStreams.$current.withValue(streams) {
            let names = RewindCommand.configuration.subcommands.map { $0.configuration.commandName ?? "\($0)" }
            if let message = CommandSuggestion.error(for: arguments, commands: names)
                ?? NegativeEventNumber.error(for: arguments) ?? unknownOption(in: arguments, commands: names) {
                streams.writeError("Error: \(message)\n")
                return ExitCode(64).rawValue
            }
            do {
                var command = try RewindCommand.parseAsRoot(arguments)
                try command.run()
                return ExitCode.success.rawValue
            } catch {
                let code = RewindCommand.exitCode(for: error)
                let message = RewindCommand.fullMessage(for: error)
                if !message.isEmpty {
                    if code == .success { streams.printLine(message) } else { streams.writeError(message + "\n") }
                }
                return code.rawValue
            }
        }
    }

    /// `rewind --frobnicate`: arguments naming no command go to the default subcommand, whose usage the parser
    /// would print for an option it does not know. This names the option and prints the command's own usage and
    /// its commands instead; nil when the arguments name a command or parse.
    private static func unknownOption(in arguments: [String], commands: [String]) -> String? {
        guard arguments.first?.hasPrefix("-") == true, !arguments.contains(where: commands.contains),
              let defaultName = RewindCommand.configuration.defaultSubcommand?.configuration.commandName else {
            return nil
        }
        do {
            _ = try RewindCommand.parseAsRoot(arguments)
            return nil
        } catch {
            let message = RewindCommand.message(for: error)
            guard message.hasPrefix("Unknown option") else { return nil }
            let name = RewindCommand.configuration.commandName ?? "rewind"
            return "\(message) (not an option of '\(name)', nor of '\(name) \(defaultName)', which runs when no command "
                + "is given)\nUsage: \(name) [<command>] [<options>]\n  Commands: \(commands.joined(separator: ", "))\n"
                + "  See '\(name) --help' for more information."
        }
    }
}
