import ArgumentParser
import Foundation
import RewindMCP

/// `rewind mcp [--allow-control] [--data DIR] [--port N] [--token-file F]`: a Model Context Protocol server over
/// standard input and output, for coding agents (docs/MCP.md).
struct McpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve recorded and live sessions to an agent over the Model Context Protocol (stdio).",
        discussion: """
            An MCP client (an agent, an editor) starts 'rewind mcp' and speaks JSON-RPC on its standard input and \
            output. The read tools answer from the session files in --data; live sessions' abilities come from the \
            daemon at --host/--port. The tools that change a live app (jump, dispatch, skip, replay) are offered \
            only with --allow-control. The tools are listed in docs/MCP.md.
            """
    )

    @Flag(name: .customLong("allow-control"),
          help: "Offer the tools that change a live app: jump, dispatch, skip, replay (never by default).")
    var allowControl = false

    @OptionGroup var data: DataOptions

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let server = RewindMCPServer(
            directory: data.directory, daemon: DaemonControlClient(connection: connection),
            allowControl: allowControl, rewindExecutable: Bundle.main.executableURL)
        let version = RewindVersion.release
        try BlockingTask.run { try await server.run(version: version) }
    }
}
