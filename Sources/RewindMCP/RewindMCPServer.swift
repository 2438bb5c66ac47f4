import Foundation
import MCP
import RewindWire

/// `rewind mcp`: a Model Context Protocol server over standard input and output (the official Swift SDK's stdio
/// transport) that answers an agent's questions about recorded sessions — the read tools (``ReadTools``), and
/// with `allowControl` the tools that change a live app (``ControlTools``) — plus each session's summary as a
/// resource and a prompt to find the action that broke a value (docs/MCP.md).
///
/// Tool calls run on a dispatch queue (they block while they read a session file), never on the concurrency pool's
/// threads. A tool's failure is a tool result with `isError: true`; bad arguments and unknown tools are protocol
/// errors (`invalidParams`).
///
/// Threading: configure on one thread, then `run()` once; the SDK's actor serializes the transport.
package final class RewindMCPServer: Sendable {
    /// The tools offered, in order.
    package let tools: [ToolDefinition]
    /// The sessions answered about.
    let library: SessionLibrary
    /// Whether the control tools are offered.
    let allowControl: Bool
    /// The read tools, for the summary resource.
    let readTools: ReadTools

    /// A server over the sessions of `directory` and the daemon `daemon`; the control tools only when
    /// `allowControl`; `verify_session` runs `rewindExecutable` when given.
    package init(directory: URL, daemon: (any DaemonControl)?, allowControl: Bool, rewindExecutable: URL?) {
        library = SessionLibrary(directory: directory, daemon: daemon)
        self.allowControl = allowControl
        readTools = ReadTools(library: library, rewindExecutable: rewindExecutable)
        tools = readTools.definitions + (allowControl ? ControlTools(library: library).definitions : [])
    }

    /// Serves one client over standard input and output until it closes them.
    package func run(version: String) async throws {
        let server = Server(
            name: "rewind", version: version,
            instructions: "Rewind records every action and state of an app's store. Start with list_sessions; "
                + "then list_events, get_state, path_history (which actions changed a value), search_events and "
                + "first_event_where (when a condition on the state became true), diff_states, session_statistics.",
            capabilities: .init(prompts: .init(listChanged: false), resources: .init(subscribe: false, listChanged: false),
                                tools: .init(listChanged: false)))
        await register(on: server)
        try await server.start(transport: StdioTransport())
        await server.waitUntilCompleted()
    }

    /// Registers the handlers of tools, resources and prompts on `server`.
    func register(on server: Server) async {
        let tools = self.tools
        let controlNames = Set(ControlTools(library: library).definitions.map(\.name))
        let allowControl = self.allowControl
        await server.withMethodHandler(ListTools.self) { _ in
            ListTools.Result(tools: tools.map(\.tool))
        }
        await server.withMethodHandler(CallTool.self) { parameters in
            guard let tool = tools.first(where: { $0.name == parameters.name }) else {
                if controlNames.contains(parameters.name) && !allowControl {
                    throw MCPError.invalidParams("the tool '\(parameters.name)' changes a live app: it is offered only "
                        + "when `rewind mcp` runs with --allow-control")
                }
                throw MCPError.invalidParams("no tool named '\(parameters.name)' (tools/list names them)")
            }
            let arguments = try ToolArguments(tool: tool.name, values: parameters.arguments, known: tool.argumentNames)
            return try await Self.call(tool, arguments)
        }
        let library = self.library
        let readTools = self.readTools
        await server.withMethodHandler(ListResources.self) { _ in
            ListResources.Result(resources: try await Self.offBlocking { SessionSummary.resources(in: library) },
                                 nextCursor: nil)
        }
        await server.withMethodHandler(ReadResource.self) { parameters in
            try await Self.offBlocking {
                try SessionSummary.read(parameters.uri, library: library, tools: readTools)
            }
        }
        await server.withMethodHandler(ListPrompts.self) { _ in
            ListPrompts.Result(prompts: [BreakingActionPrompt.prompt], nextCursor: nil)
        }
        await server.withMethodHandler(GetPrompt.self) { parameters in
            guard parameters.name == BreakingActionPrompt.prompt.name else {
                throw MCPError.invalidParams("no prompt named '\(parameters.name)' (prompts/list names them)")
            }
            return try BreakingActionPrompt.messages(parameters.arguments ?? [:])
        }
    }

    /// Runs `tool` off the concurrency pool; its answer as compact JSON text, a `ToolFailure` (or any error but
    /// a protocol error) as a tool error.
    static func call(_ tool: ToolDefinition, _ arguments: ToolArguments) async throws -> CallTool.Result {
        do {
            let answer = try await offBlocking { try tool.run(arguments) }
            return CallTool.Result(content: [.text(text: answer.serialized(), annotations: nil, _meta: nil)], isError: false)
        } catch let error as MCPError {
            throw error
        } catch {
            return CallTool.Result(content: [.text(text: "\(error)", annotations: nil, _meta: nil)], isError: true)
        }
    }

    /// `body`'s result, computed on a dispatch queue (it blocks while it reads).
    static func offBlocking<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Swift.Result { try body() })
            }
        }
    }
}
