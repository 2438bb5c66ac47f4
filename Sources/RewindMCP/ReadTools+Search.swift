import MCP
import RewindSessionFile
import RewindTUI
import RewindWire

/// `search_events` and `first_event_where`: the timeline's `/` search (`TimelineSearchQuery`: a label regular
/// expression, `action:` text, `state:` condition) over a range of events, bounded by the number of events scanned
/// (`scanLimit`): an answer that stops early says where to continue.
extension ReadTools {
    /// Events scanned per call when the caller does not say: a state condition rebuilds every state it scans, about
    /// 100,000 a second on a loaded 2-core machine (release), so that a call answers within about a second.
    static let defaultScanLimit: Int64 = 100_000
    /// Events per SQL query of a label or action search.
    static let searchChunk: Int64 = 50_000

    static let scanLimit = ToolDefinition.Argument.integer(
        "scanLimit", "Scan at most this many events per call (default \(defaultScanLimit)); the answer's nextFrom "
            + "continues.", minimum: 1, maximum: 10_000_000)

    var searchEvents: ToolDefinition {
        ToolDefinition(
            name: "search_events",
            description: "Events matching a query, as the timeline's / search: a regular expression on the label "
                + "(smart case), 'action:TEXT' (the action's JSON contains TEXT), or 'state:POINTER OP VALUE' with OP "
                + "==, !=, <, <=, >, >= or contains and a JSON value (e.g. 'state:/cart/total < 0'; a '*' token "
                + "matches every member: 'state:/todos/*/done == true'), which finds the main-line events after which "
                + "the condition becomes true. Bounded by scanLimit and limit; nextFrom continues.",
            arguments: [Self.session, .string("query", "The query: a label regex, action:TEXT or state:POINTER OP VALUE.",
                                              required: true)]
                + Self.range
                + [.integer("limit", "At most this many matches (default 50).", minimum: 1, maximum: 1_000), Self.scanLimit]
        ) { arguments in
            var budget = try OutputBudget(arguments)
            let reader = try library.reader(try arguments.string("session"))
            let query = try Self.query(try arguments.string("query"), tool: "search_events")
            let (from, to) = try Self.eventRange(arguments, in: reader)
            let limit = Int(try arguments.optionalInteger("limit", in: 1...1_000) ?? 50)
            let scanLimit = try arguments.optionalInteger("scanLimit", in: 1...10_000_000) ?? Self.defaultScanLimit
            var answer: JSONObject = ["session": .string(reader.id.rawValue), "query": .string(query.description)]
            var matches: [Int64] = []
            var nextFrom: Int64?
            if from <= to {
                let search = try Self.reading { () throws(SessionStoreError) in try reader.makeSearch() }
                // A label search through the file's label index seeks rather than scans: the whole range at once.
                let seeks = query.labelFilter != nil && search.hasLabelIndex
                let end = seeks ? to : min(to, from + scanLimit - 1)
                nextFrom = try Self.reading { () throws(SessionStoreError) in
                    try Self.collect(query, in: from...end, search: search, limit: limit, into: &matches)
                } ?? (end < to ? end + 1 : nil)
            }
            var rows: [JSONValue] = []
            for index in matches {
                guard let event = try? reader.event(at: index) else { continue }
                var row: JSONObject = ["index": .int(index), "kind": .string(event.kind.rawValue)]
                if event.branch != 0 { row["branch"] = .int(event.branch) }
                if let label = event.label { row["label"] = .string(label) }
                guard budget.admit(.object(row)) else {
                    nextFrom = index
                    break
                }
                rows.append(.object(row))
            }
            answer["matches"] = .array(rows)
            if let nextFrom { answer["nextFrom"] = .int(nextFrom) }
            answer["complete"] = .bool(nextFrom == nil)
            answer["limits"] = .object(["maxBytes": .int(Int64(budget.maxBytes)), "scanLimit": .int(scanLimit)])
            return .object(answer)
        }
    }

    /// Appends the events of `range` matching `query` to `matches`, in order, until there are `limit`; returns the
    /// event to continue from when it stopped at the limit, nil when it searched the whole range.
    static func collect(
        _ query: TimelineSearchQuery, in range: ClosedRange<Int64>, search: SessionSearch, limit: Int,
        into matches: inout [Int64]
    ) throws(SessionStoreError) -> Int64? {
        switch query {
        case .label(let filter):
            let labels = Set(try search.displayLabels(in: range).filter(filter.matches))
            guard !labels.isEmpty else { return nil }
            var position = range.lowerBound
            if search.hasLabelIndex {
                // One index seek per label and match, however far apart the matches are.
                while position <= range.upperBound,
                      let found = try search.firstEvent(labelIn: labels, in: position...range.upperBound, forward: true) {
                    guard matches.count < limit else { return found }
                    matches.append(found)
                    position = found + 1
                }
                return nil
            }
            while position <= range.upperBound {
                let part = position...min(range.upperBound, position + searchChunk - 1)
                for index in try search.eventIndices(labelIn: labels, in: part) {
                    guard matches.count < limit else { return index }
                    matches.append(index)
                }
                position = part.upperBound + 1
            }
            return nil
        case .action(let text):
            let ignoreCase = !text.contains(where: \.isUppercase)
            var position = range.lowerBound
            while position <= range.upperBound {
                guard let found = try search.firstEvent(actionContaining: text, ignoringCase: ignoreCase,
                                                        in: position...range.upperBound, forward: true) else {
                    return nil
                }
                guard matches.count < limit else { return found }
                matches.append(found)
                position = found + 1
            }
            return nil
        case .state(let condition):
            var before: Bool?
            var resume: Int64?
            try search.forEachMainLineState(in: (range.lowerBound - 1)...range.upperBound) { index, state in
                let now = condition.holds(in: state)
                defer { before = now }
                if let before, now && !before, index >= range.lowerBound {
                    guard matches.count < limit else {
                        resume = index
                        return false
                    }
                    matches.append(index)
                }
                return true
            }
            return resume
        }
    }

    /// The query `text` stands for, or a protocol error saying what is wrong with it.
    static func query(_ text: String, tool: String) throws(MCPError) -> TimelineSearchQuery {
        do {
            return try TimelineSearchQuery(parsing: text)
        } catch {
            throw .invalidParams("\(tool): '\(text)' is not a query: \(error.description)")
        }
    }

    var firstEventWhere: ToolDefinition {
        ToolDefinition(
            name: "first_event_where",
            description: "The first main-line event after which a state condition holds (POINTER OP VALUE, OP ==, "
                + "!=, <, <=, >, >= or contains, e.g. '/cart/total < 0' or '/user == null'), searching forward from "
                + "an event, with the value at the pointer then. Event 0 means the initial state already satisfies "
                + "it. Bounded by scanLimit; nextFrom continues.",
            arguments: [Self.session,
                        .string("condition", "POINTER OP VALUE, e.g. /cart/total < 0 (a 'state:' prefix is allowed).",
                                required: true),
                        .integer("from", "The first event whose state to test (default 0, the initial state)."),
                        Self.scanLimit]
        ) { arguments in
            let budget = try OutputBudget(arguments)
            let reader = try library.reader(try arguments.string("session"))
            let text = try arguments.string("condition")
            let condition: TimelineSearchQuery.StateCondition
            switch try Self.query(text.hasPrefix("state:") || text.hasPrefix("s:") ? text : "state:" + text,
                                  tool: "first_event_where") {
            case .state(let parsed): condition = parsed
            default: throw MCPError.invalidParams("first_event_where: '\(text)' is not a state condition")
            }
            let from = try arguments.optionalInteger("from") ?? 0
            let scanLimit = try arguments.optionalInteger("scanLimit", in: 1...10_000_000) ?? Self.defaultScanLimit
            let last = reader.eventCount
            guard from <= last else {
                throw ToolFailure("session \(reader.id) has no event \(from): its events are 0–\(last)")
            }
            let end = min(last, from + scanLimit - 1)
            let search = try Self.reading { () throws(SessionStoreError) in try reader.makeSearch() }
            var found: (index: Int64, state: JSONValue)?
            try Self.reading { () throws(SessionStoreError) in
                try search.forEachMainLineState(in: from...max(from, end)) { index, state in
                    guard condition.holds(in: state) else { return true }
                    found = (index, state)
                    return false
                }
            }
            var answer: JSONObject = ["session": .string(reader.id.rawValue),
                                      "condition": .string(condition.description), "from": .int(from)]
            if let found {
                answer["found"] = true
                answer["event"] = .int(found.index)
                if let event = try? reader.event(at: found.index), found.index > 0 {
                    answer["kind"] = .string(event.kind.rawValue)
                    if let label = event.label { answer["label"] = .string(label) }
                }
                if !condition.tokens.contains("*") {
                    let pointer = JSONPointer(tokens: condition.tokens)
                    answer["value"] = budget.fitted(found.state[pointer] ?? .null, within: 4_096,
                                                    hint: "read it with get_state event=\(found.index) pointer=\(pointer)")
                }
            } else {
                answer["found"] = false
                answer["scannedThrough"] = .int(end)
                if end < last { answer["nextFrom"] = .int(end + 1) }
            }
            answer["limits"] = .object(["maxBytes": .int(Int64(budget.maxBytes)), "scanLimit": .int(scanLimit)])
            return .object(answer)
        }
    }
}
