import Foundation
import MCP
import RewindSessionFile
import RewindWire

/// The tools that read sessions (docs/MCP.md): listing sessions and events, states, patches between states, a
/// location's history, search, the first event after which a condition holds, statistics, and verify. They never
/// change an app or a session file.
///
/// Threading: immutable; each tool's function may run on any thread and blocks while it reads the session file.
package struct ReadTools: Sendable {
    /// Where the sessions are.
    let library: SessionLibrary
    /// The `rewind` executable, which `verify_session` runs as `rewind verify`; nil leaves that tool out.
    let rewindExecutable: URL?

    /// The read tools over `library`; `verify_session` runs `rewindExecutable` when given.
    package init(library: SessionLibrary, rewindExecutable: URL?) {
        self.library = library
        self.rewindExecutable = rewindExecutable
    }

    /// Every read tool, in the order `tools/list` shows them.
    package var definitions: [ToolDefinition] {
        var result = [listSessions, listEvents, getState, diffStates, pathHistory, searchEvents, firstEventWhere,
                      sessionStatistics]
        if let verify = verifySession { result.append(verify) }
        return result
    }

    // MARK: Arguments shared by several tools

    static let session = ToolDefinition.Argument.string(
        "session", "The session id, or a unique prefix of it (list_sessions shows them).", required: true)

    /// `from` and `to`: a range of events, read with ``eventRange(_:in:)``.
    static let range: [ToolDefinition.Argument] = [.integer("from", "The first event (default 1)."),
                                                   .integer("to", "The last event (default: the last).")]

    /// The range of events `from`…`to` the arguments ask for, within the session's (1 through the last); `from`
    /// is past `to` when the range holds no event.
    static func eventRange(_ arguments: ToolArguments, in reader: SessionReader) throws(MCPError)
        -> (from: Int64, to: Int64) {
        let last = reader.eventCount
        return (max(1, try arguments.optionalInteger("from") ?? 1), min(last, try arguments.optionalInteger("to") ?? last))
    }

    // MARK: list_sessions

    var listSessions: ToolDefinition {
        ToolDefinition(
            name: "list_sessions",
            description: "The recorded sessions, live ones first, then newest first: id, app, start and end times, "
                + "events, actions lost, how the recording ended (live, clean, interrupted), the state's type and, "
                + "for a live app, what it accepts (jump, dispatch, replay). Paged with offset/limit.",
            arguments: [.integer("offset", "Skip this many sessions (paging; default 0)."),
                        .integer("limit", "At most this many sessions (default 50).", minimum: 1, maximum: 500)]
        ) { arguments in
            var budget = try OutputBudget(arguments)
            let offset = Int(try arguments.optionalInteger("offset") ?? 0)
            let limit = Int(try arguments.optionalInteger("limit", in: 1...500) ?? 50)
            let store = try library.store()
            let sessions: [SessionMetadata]
            var unreadable: [String] = []
            do {
                sessions = try store.listSessions { url, error in unreadable.append("\(url.lastPathComponent): \(error)") }
            } catch {
                throw ToolFailure("cannot list \(library.directory.path): \(error)")
            }
            let ordered = Self.liveFirst(sessions)
            let live: (sessions: [String: ControlSessionInfo], problem: String?) =
                ordered.contains { $0.endState == .live } ? library.liveSessions() : ([:], nil)
            var rows: [JSONValue] = []
            var next: Int?
            for (position, session) in ordered.enumerated().dropFirst(offset) {
                guard rows.count < limit else {
                    next = position
                    break
                }
                let row = Self.sessionJSON(session, store: store, live: live.sessions[session.id.rawValue])
                guard budget.admit(row) else {
                    next = position
                    break
                }
                rows.append(row)
            }
            var answer = JSONObject()
            answer["directory"] = .string(library.directory.path)
            answer["total"] = .int(Int64(ordered.count))
            answer["sessions"] = .array(rows)
            if let next { answer["nextOffset"] = .int(Int64(next)) }
            if let problem = live.problem {
                answer["daemon"] = .string("live sessions' capabilities are unknown: \(problem)")
            }
            if !unreadable.isEmpty { answer["unreadable"] = .array(unreadable.prefix(10).map { .string($0) }) }
            answer["limits"] = budget.limitsJSON
            return .object(answer)
        }
    }

    /// `sessions`, those being recorded first, then the newest first.
    static func liveFirst(_ sessions: [SessionMetadata]) -> [SessionMetadata] {
        sessions.sorted { a, b in
            let aLive = a.endState == .live
            let bLive = b.endState == .live
            if aLive != bLive { return aLive }
            return a.startedAt > b.startedAt
        }
    }

    /// One session's row of `list_sessions` (and the summary resource).
    static func sessionJSON(_ session: SessionMetadata, store: SessionStore, live: ControlSessionInfo?) -> JSONValue {
        var row = session.listingJSON(actionsLost: try? store.openSession(session.id).actionsLost())
        if let capabilities = live?.capabilities {
            row["accepts"] = .array(capabilities.filter { ["jump", "dispatch", "replay"].contains($0) }.map { .string($0) })
        }
        return .object(row)
    }

    // MARK: list_events

    var listEvents: ToolDefinition {
        ToolDefinition(
            name: "list_events",
            description: "The events of a session in a range of event numbers: index, kind, label, time since the "
                + "session started, patch operations, reducer time, whether the state after it is known, and "
                + "(with includeActions) the action. Paged: the answer's nextFrom continues.",
            arguments: [Self.session] + Self.range + [
                        .integer("branch", "Only this branch (0: the main line; default: every branch)."),
                        .integer("limit", "At most this many events (default 100).", minimum: 1, maximum: 1_000),
                        .boolean("includeActions", "Include each event's action JSON (default false).")]
        ) { arguments in
            var budget = try OutputBudget(arguments)
            let reader = try library.reader(try arguments.string("session"))
            let last = reader.eventCount
            let (from, to) = try Self.eventRange(arguments, in: reader)
            let branch = try arguments.optionalInteger("branch")
            let limit = try arguments.optionalInteger("limit", in: 1...1_000) ?? 100
            let withActions = try arguments.bool("includeActions", default: false)
            var answer = JSONObject()
            answer["session"] = .string(reader.id.rawValue)
            answer["eventCount"] = .int(last)
            var rows: [JSONValue] = []
            if from <= to {
                let page = from...min(to, from + limit - 1)
                let events = try Self.reading { () throws(SessionStoreError) -> [RecordedEvent] in
                    if let branch { return try reader.events(page, branch: branch) }
                    return try reader.eventsOnAllBranches(page)
                }
                let unknown = try Self.reading { () throws(SessionStoreError) in try reader.unknownStates() }
                let started = reader.metadata.startedAt.timeIntervalSince1970
                var nextFrom: Int64? = page.upperBound < to ? page.upperBound + 1 : nil
                for event in events {
                    let row = Self.eventJSON(event, started: started, unknown: unknown, withAction: withActions,
                                             budget: budget)
                    guard budget.admit(row) else {
                        nextFrom = event.index
                        break
                    }
                    rows.append(row)
                }
                if let nextFrom { answer["nextFrom"] = .int(nextFrom) }
            }
            answer["events"] = .array(rows)
            answer["limits"] = budget.limitsJSON
            return .object(answer)
        }
    }

    /// One event's row: index, branch (when not 0), kind, label, seconds since the start, app's number, patch
    /// operations, reducer time, state known or unknown, and the action when asked.
    static func eventJSON(_ event: RecordedEvent, started: Double, unknown: [UnknownState], withAction: Bool,
                          budget: OutputBudget) -> JSONValue {
        var row = JSONObject()
        row["index"] = .int(event.index)
        if event.branch != 0 { row["branch"] = .int(event.branch) }
        row["kind"] = .string(event.kind.rawValue)
        if let label = event.label { row["label"] = .string(label) }
        row["seconds"] = .double(((event.time - started) * 1000).rounded() / 1000)
        if let appSeq = event.appSeq { row["appSeq"] = .int(appSeq) }
        row["ops"] = event.patch.map { .int(Int64($0.operations.count)) } ?? .null
        if let micros = event.reducerMicros { row["reducerMicros"] = .double(micros) }
        let stretch = unknown.first { $0.contains(event.index, branch: event.branch) }
        row["state"] = .string(stretch == nil ? "known" : "unknown")
        if let stretch { row["unknownBecause"] = .string(stretch.explanation(for: event.index)) }
        if let detail = event.detail { row["detail"] = .string(detail) }
        if withAction, let action = event.action {
            row["action"] = budget.fitted(action, within: 2_048,
                                          hint: "a large action: read it alone with list_events from=to=\(event.index)")
        }
        return .object(row)
    }

    // MARK: get_state

    var getState: ToolDefinition {
        ToolDefinition(
            name: "get_state",
            description: "The recorded state after an event (0: the initial state), whole or the value at a JSON "
                + "Pointer (as `rewind state SESSION EVENT --pointer P`). A value larger than maxBytes comes back "
                + "outlined (members and their sizes): ask again with a pointer to a member.",
            arguments: [Self.session,
                        .integer("event", "The event number (0: the initial state).", required: true),
                        .string("pointer", "Only the value at this JSON Pointer, e.g. /todos/0 ('' or absent: all).")]
        ) { arguments in
            let budget = try OutputBudget(arguments)
            let reader = try library.reader(try arguments.string("session"))
            let event = try arguments.integer("event")
            let pointer = try arguments.optionalPointer("pointer") ?? .root
            let state = try Self.state(after: event, in: reader)
            guard let value = state[pointer] else {
                throw ToolFailure("the state after event \(event) has no value at \(pointer) "
                    + "(get_state without a pointer outlines the whole state)")
            }
            let hint = "ask for one member: pointer=\(pointer.isRoot ? "" : pointer.description)/<member>"
            return .object(["session": .string(reader.id.rawValue), "event": .int(event),
                            "pointer": .string(pointer.description),
                            "value": budget.fitted(value, hint: hint), "limits": budget.limitsJSON])
        }
    }

    /// The recorded state after event `index`, or a failure naming the session's range of events, or the stretch
    /// of unknown state holding it.
    package static func state(after index: Int64, in reader: SessionReader) throws(ToolFailure) -> JSONValue {
        guard (0...reader.eventCount).contains(index) else {
            throw ToolFailure("session \(reader.id) has no event \(index): its events are 0–\(reader.eventCount) "
                + "(0 is the initial state)")
        }
        let recorded = try reading { () throws(SessionStoreError) in try reader.recordedState(after: index) }
        switch recorded {
        case .known(let state):
            return state
        case .unknown(let range):
            throw ToolFailure("the state after event \(index) was not recorded: \(range.explanation(for: index)) "
                + "(pick an event outside it; list_events marks each event's state known or unknown)")
        }
    }

    /// `body`, with a session store error turned into a tool failure.
    static func reading<Result>(_ body: () throws(SessionStoreError) -> Result) throws(ToolFailure) -> Result {
        do {
            return try body()
        } catch {
            throw ToolFailure("\(error)")
        }
    }

    // MARK: diff_states

    var diffStates: ToolDefinition {
        ToolDefinition(
            name: "diff_states",
            description: "The JSON Patch (RFC 6902) from the state after one event to the state after another, "
                + "optionally at a JSON Pointer (as `rewind diff SESSION FROM TO --json`). Operations beyond maxBytes "
                + "are counted, not shown: narrow with a pointer.",
            arguments: [Self.session,
                        .integer("from", "The earlier event (0: the initial state).", required: true),
                        .integer("to", "The later event.", required: true),
                        .string("pointer", "Compare only the values at this JSON Pointer.")]
        ) { arguments in
            var budget = try OutputBudget(arguments)
            let reader = try library.reader(try arguments.string("session"))
            let from = try arguments.integer("from")
            let to = try arguments.integer("to")
            let pointer = try arguments.optionalPointer("pointer") ?? .root
            var before = try Self.state(after: from, in: reader)
            var after = try Self.state(after: to, in: reader)
            if !pointer.isRoot {
                guard let a = before[pointer], let b = after[pointer] else {
                    throw ToolFailure("the state after event \(before[pointer] == nil ? from : to) has no value at "
                        + "\(pointer) (path_history shows when it appeared)")
                }
                before = a
                after = b
            }
            let patch = JSONPatch.diff(from: before, to: after)
            var shown: [JSONValue] = []
            for operation in patch.json.arrayValue ?? [] {
                guard budget.admit(operation) else { break }
                shown.append(operation)
            }
            var answer: JSONObject = ["session": .string(reader.id.rawValue), "from": .int(from), "to": .int(to),
                                      "pointer": .string(pointer.description),
                                      "operations": .int(Int64(patch.operations.count)), "patch": .array(shown)]
            if shown.count < patch.operations.count {
                answer["omitted"] = .int(Int64(patch.operations.count - shown.count))
                answer["hint"] = .string("the patch is larger than maxBytes: pass a pointer to compare one part")
            }
            answer["limits"] = budget.limitsJSON
            return .object(answer)
        }
    }

    // MARK: path_history

    var pathHistory: ToolDefinition {
        ToolDefinition(
            name: "path_history",
            description: "Which events changed the value at a JSON Pointer, newest first (as `rewind history`), each "
                + "with its label and the value before and after it: e.g. which actions changed /cart/total. "
                + "A value absent before or after is left out of that event's answer.",
            arguments: [Self.session,
                        .string("pointer", "The location, e.g. /cart/total ('' the whole state).", required: true),
                        .integer("through", "Only events up to this one (default: the last)."),
                        .integer("branch", "The branch whose lineage to follow (default 0, the main line)."),
                        .integer("limit", "At most this many changes, the newest (default 20).", minimum: 1,
                                 maximum: 500)]
        ) { arguments in
            var budget = try OutputBudget(arguments)
            let reader = try library.reader(try arguments.string("session"))
            let pointer = try arguments.pointer("pointer")
            let through = try arguments.optionalInteger("through")
            let branch = try arguments.optionalInteger("branch") ?? 0
            let limit = Int(try arguments.optionalInteger("limit", in: 1...500) ?? 20)
            let branches = try Self.reading { () throws(SessionStoreError) in try reader.branches() }
            guard branches.contains(branch) else {
                throw ToolFailure("session \(reader.id) has no branch \(branch) (its branches: "
                    + branches.map(String.init).joined(separator: ", ") + ")")
            }
            let changes = try Self.reading { () throws(SessionStoreError) in
                try reader.history(of: pointer, through: through, branch: branch, limit: limit)
            }
            let started = reader.metadata.startedAt.timeIntervalSince1970
            let hint = "a large value: read it with get_state event=N pointer=\(pointer)"
            var rows: [JSONValue] = []
            var truncated = false
            for change in changes {
                var row = JSONObject()
                row["index"] = .int(change.index)
                if change.branch != 0 { row["branch"] = .int(change.branch) }
                if let event = try? reader.event(at: change.index) {
                    row["kind"] = .string(event.kind.rawValue)
                    if let label = event.label { row["label"] = .string(label) }
                    row["seconds"] = .double(((event.time - started) * 1000).rounded() / 1000)
                }
                row["how"] = .string(change.cause == .patch ? "patch" : "state replaced")
                let before = (try? reader.state(at: change.index - 1, branch: change.branch))
                    ?? (try? reader.state(at: change.index - 1, branch: 0))
                if let value = before?[pointer] { row["before"] = budget.fitted(value, within: 2_048, hint: hint) }
                if let value = (try? reader.state(at: change.index, branch: change.branch))?[pointer] {
                    row["after"] = budget.fitted(value, within: 2_048, hint: hint)
                }
                let object = JSONValue.object(row)
                guard budget.admit(object) else {
                    truncated = true
                    break
                }
                rows.append(object)
            }
            var answer: JSONObject = ["session": .string(reader.id.rawValue), "pointer": .string(pointer.description),
                                      "changes": .array(rows)]
            if truncated || changes.count == limit, let oldest = rows.last?["index"]?.int64Value, oldest > 1 {
                answer["nextThrough"] = .int(oldest - 1)
            }
            answer["limits"] = budget.limitsJSON
            return .object(answer)
        }
    }
}
