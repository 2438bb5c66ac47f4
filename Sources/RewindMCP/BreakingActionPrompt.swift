import MCP

/// The prompt "find the action that broke this value": given a session and a location in its state (and what the
/// value should have been), it tells the agent how to find the event that made the value wrong with the read
/// tools, and to answer from the recording.
///
/// Threading: stateless.
enum BreakingActionPrompt {
    /// The prompt as `prompts/list` shows it.
    static let prompt = Prompt(
        name: "find_breaking_action",
        description: "Find the action that broke a value in a recorded session's state.",
        arguments: [
            .init(name: "session", description: "The session id (list_sessions).", required: true),
            .init(name: "pointer", description: "The location of the wrong value, e.g. /cart/total.", required: true),
            .init(name: "expected", description: "What it should have been, or a condition such as '>= 0'."),
        ])

    /// The prompt's messages for `arguments`, or a protocol error naming a missing argument.
    static func messages(_ arguments: [String: String]) throws -> GetPrompt.Result {
        guard let session = arguments["session"], !session.isEmpty else {
            throw MCPError.invalidParams("find_breaking_action needs 'session' (list_sessions shows the ids)")
        }
        guard let pointer = arguments["pointer"], !pointer.isEmpty else {
            throw MCPError.invalidParams("find_breaking_action needs 'pointer', e.g. /cart/total")
        }
        let expected = arguments["expected"].map { " It should have been \($0)." } ?? ""
        let text = """
            In the Rewind session \(session), the value at \(pointer) is wrong.\(expected) Find the action that broke \
            it, from the recording rather than by guessing:
            1. path_history session=\(session) pointer=\(pointer): the events that changed it, newest first, with the \
            value before and after each.
            2. If you can state the bad value as a condition (e.g. '\(pointer) == null'), first_event_where finds the \
            first event after which it holds.
            3. For the suspect event N, list_events from=N to=N includeActions=true shows its action, and diff_states \
            from=N-1 to=N what it changed.
            Answer with the event number, its action, the value before and after, and why that action produced it.
            """
        return GetPrompt.Result(description: "Find the action that broke \(pointer) in session \(session)",
                                messages: [.user(.text(text: text))])
    }
}
