import ArgumentParser

/// `rewind`: the time-travel inspector's command line. With no subcommand it runs the daemon with its live
/// timeline (`rewind serve`). Run through ``RewindCLI``.
struct RewindCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rewind",
        abstract: "Record, watch and time-travel the stores of apps built on Rewind.",
        discussion: """
            Apps link the RewindInspector middleware and stream every action and state diff to this daemon \
            (ws://127.0.0.1:7723 by default). Run 'rewind' in a terminal for the live timeline, or \
            'rewind serve --headless' to record only.
            """,
        version: RewindVersion.text,
        subcommands: [
            ServeCommand.self, SessionsCommand.self, OpenCommand.self, ExportCommand.self, ImportCommand.self,
            TailCommand.self, JumpCommand.self, DispatchCommand.self, ReplayCommand.self, VerifyCommand.self,
            SkipCommand.self, DiffCommand.self, PatchCommand.self, HistoryCommand.self, StateCommand.self, StatsCommand.self,
            McpCommand.self,
        ],
        defaultSubcommand: ServeCommand.self
    )
}
