import Foundation
import MCP
import RewindWire

/// The tools that change a live app, listed only when `rewind mcp` runs with `--allow-control`: jump (put a
/// recorded state in place), dispatch (send an action), skip (recompute without an event, on a new branch) and
/// replay (the recorded actions through the app's reducers). Each goes through the running daemon, as `rewind
/// jump`/`dispatch`/`skip`/`replay` do, and is refused — with the reason — when the session is not live or its app
/// does not offer the ability. Nothing is evaluated: an action is JSON the app decodes as it decodes any.
///
/// Threading: immutable; each tool's function may run on any thread and blocks until the daemon answers.
package struct ControlTools: Sendable {
    /// Where the sessions are, and the daemon.
    let library: SessionLibrary

    /// The control tools over `library`'s daemon.
    package init(library: SessionLibrary) {
        self.library = library
    }

    /// Every control tool.
    package var definitions: [ToolDefinition] {
        [jump, dispatch, skip, replay]
    }

    static let event = ToolDefinition.Argument.integer("event", "The event number (0: the initial state).",
                                                       required: true)

    var jump: ToolDefinition {
        ToolDefinition(
            name: "jump", description: "Put the live app of a session into the state recorded after an event (as "
                + "`rewind jump`). Needs the app to accept 'jump'.",
            arguments: [ReadTools.session, Self.event], changesApp: true
        ) { arguments in
            let (id, _) = try live(try arguments.string("session"), needing: WireCapability.jump, for: "jump")
            let event = try arguments.integer("event")
            _ = try send(.jump(session: id, seq: UInt64(event)))
            return .object(["session": .string(id), "jumpedTo": .int(event),
                            "message": .string("the app now has the state recorded after event \(event)")])
        }
    }

    var dispatch: ToolDefinition {
        ToolDefinition(
            name: "dispatch", description: "Send an action (JSON, as the app's actions are recorded: list_events "
                + "with includeActions shows them) to the live app of a session (as `rewind dispatch`). Needs the "
                + "app to accept 'dispatch'.",
            arguments: [ReadTools.session,
                        .anyJSON("action", "The action, e.g. {\"addTodo\":{\"title\":\"milk\"}}.", required: true)],
            changesApp: true
        ) { arguments in
            let (id, _) = try live(try arguments.string("session"), needing: WireCapability.dispatch, for: "dispatch")
            let action = try arguments.json("action")
            let result = try send(.dispatch(session: id, action: action))
            return .object(["session": .string(id), "dispatched": action, "result": result])
        }
    }

    var skip: ToolDefinition {
        ToolDefinition(
            name: "skip", description: "Toggle skipping an event of a live session: the daemon recomputes the "
                + "states after it without it, on a new branch, and puts the app in the last (as `rewind skip`). "
                + "Needs the app to accept 'replay'.",
            arguments: [ReadTools.session, Self.event], changesApp: true
        ) { arguments in
            let (id, _) = try live(try arguments.string("session"), needing: WireCapability.replay, for: "skip")
            let event = try arguments.integer("event", in: 1...Int64.max)
            let result = try send(.skip(session: id, seq: UInt64(event)))
            return .object(["session": .string(id), "result": result])
        }
    }

    var replay: ToolDefinition {
        ToolDefinition(
            name: "replay", description: "Replay a session's recorded actions from an event (to another) into its "
                + "live app, through the app's reducers with effects muted (as `rewind replay`). Needs the app to "
                + "accept 'replay'.",
            arguments: [ReadTools.session,
                        .integer("from", "The first event to replay (default 1)."),
                        .integer("to", "The last event to replay (default: the last).")],
            changesApp: true
        ) { arguments in
            let (id, _) = try live(try arguments.string("session"), needing: WireCapability.replay, for: "replay")
            let from = try arguments.optionalInteger("from", in: 1...Int64.max)
            let to = try arguments.optionalInteger("to", in: 1...Int64.max)
            let result = try send(.replay(session: id, target: nil, fromSeq: from.map(UInt64.init),
                                          toSeq: to.map(UInt64.init)))
            return .object(["session": .string(id), "result": result])
        }
    }

    /// The full id of the live session `text` names and what its app offers; a failure saying why a command
    /// `name` cannot go to it (no daemon, not live, the app does not offer `capability`).
    func live(_ text: String, needing capability: String, for name: String) throws -> (String, [String]) {
        let id = try library.reader(text).id.rawValue
        guard let daemon = library.daemon else { throw ToolFailure("no daemon is configured for \(name)") }
        let listed: JSONValue
        do {
            listed = try daemon.request(.sessions)
        } catch {
            throw ToolFailure("\(name) needs the running daemon that records the session, at \(daemon.address): "
                + "\(error) (start `rewind mcp` with the daemon's --port and --token-file)")
        }
        let entries = (listed["sessions"]?.arrayValue ?? []).compactMap { try? ControlSessionInfo(json: $0) }
        guard let entry = entries.first(where: { $0.session == id && $0.live }) else {
            throw ToolFailure("session \(id) is not live in the daemon at \(daemon.address): \(name) needs its app "
                + "connected (start the app; list_sessions shows which sessions are live)")
        }
        let offered = entry.capabilities ?? []
        guard entry.capabilities == nil || offered.contains(capability) else {
            let others = offered.filter { $0 != WireCapability.batch && $0 != WireCapability.ack }
            throw ToolFailure("the app of session \(id) does not accept '\(capability)', which \(name) needs (it "
                + "accepts " + (others.isEmpty ? "no command" : others.map { "'\($0)'" }.joined(separator: ", "))
                + "; its recorder's host must offer it, see docs/INTEGRATIONS.md)")
        }
        return (id, offered)
    }

    /// Sends `command` to the daemon; its refusal becomes a tool failure with its message.
    func send(_ command: ControlCommand) throws -> JSONValue {
        guard let daemon = library.daemon else { throw ToolFailure("no daemon is configured") }
        do {
            return try daemon.request(command)
        } catch {
            throw ToolFailure("the daemon at \(daemon.address) refused \(command.name): \(error)")
        }
    }
}
