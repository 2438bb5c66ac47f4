import Foundation
import RewindSessionFile
import RewindWire

/// `session_statistics`: the largest patches, the slowest reducers and the size of the state over time, for an agent
/// looking for where a session's cost went.
extension ReadTools {
    var sessionStatistics: ToolDefinition {
        ToolDefinition(
            name: "session_statistics",
            description: "Statistics of a session (or a range of its events): events, branches, stretches of "
                + "unknown state, the events with the largest patches (bytes) and the slowest reducers "
                + "(microseconds), the main line's state size (bytes of compact JSON) at evenly spaced events, and "
                + "with labels=true the action labels that cost the most reducer time.",
            arguments: [Self.session] + Self.range + [
                        .integer("top", "How many events each ranking lists (default 10).", minimum: 1, maximum: 100),
                        .integer("samples", "How many points of state size (default 10).", minimum: 1, maximum: 200),
                        .boolean("labels", "Also rank the action labels by the reducer time they cost (count, total, "
                            + "p99, patch bytes; as rewind stats), counted in the same scan (default false).")]
        ) { arguments in
            var budget = try OutputBudget(arguments)
            let reader = try library.reader(try arguments.string("session"))
            let last = reader.eventCount
            let (from, to) = try Self.eventRange(arguments, in: reader)
            let top = Int(try arguments.optionalInteger("top", in: 1...100) ?? 10)
            let samples = try arguments.optionalInteger("samples", in: 1...200) ?? 10
            var answer: JSONObject = ["session": .string(reader.id.rawValue), "eventCount": .int(last)]
            let metadata = reader.metadata
            if let end = metadata.lastEventAt ?? metadata.endedAt {
                answer["durationSeconds"] = .double(
                    (end.timeIntervalSince(metadata.startedAt) * 1000).rounded() / 1000)
            }
            let branches = try Self.reading { () throws(SessionStoreError) in try reader.branches() }
            answer["branches"] = .array(branches.map { .int($0) })
            let unknown = try Self.reading { () throws(SessionStoreError) in try reader.unknownStates() }
            answer["unknownStretches"] = .int(Int64(unknown.count))
            guard from <= to else {
                answer["limits"] = budget.limitsJSON
                return .object(answer)
            }
            answer["from"] = .int(from)
            answer["to"] = .int(to)
            let statistics = try Self.reading { () throws(SessionStoreError) in
                try reader.sessionStatistics(in: from...to, rankingLimit: top)
            }
            if try arguments.bool("labels", default: false) {
                answer["labelsByReducerTime"] = Self.labelRows(statistics.labels, top: top, budget: &budget)
            }
            answer["largestPatches"] = Self.ranking(statistics.largest, unit: "bytes", budget: &budget)
            answer["slowestReducers"] = Self.ranking(statistics.slowest, unit: "micros", budget: &budget)
            var sizes: [JSONValue] = []
            let count = min(samples, to - from + 1)
            for step in 0..<count {
                let index = count == 1 ? to : from + (to - from) * step / (count - 1)
                var point: JSONObject = ["index": .int(index)]
                if unknown.contains(where: { $0.contains(index, branch: 0) }) {
                    point["state"] = "unknown"
                } else if let state = try? reader.state(at: index, branch: 0) {
                    point["bytes"] = .int(Int64(state.compactSize()))
                } else {
                    continue
                }
                guard budget.admit(.object(point)) else { break }
                sizes.append(.object(point))
            }
            answer["stateSize"] = .array(sizes)
            answer["limits"] = budget.limitsJSON
            return .object(answer)
        }
    }

    /// The `top` of `labels` that cost the most reducer time, each as `rewind stats --sort total --json` prints it
    /// (`LabelStatistics.json`), within `budget`.
    static func labelRows(_ labels: [LabelStatistics], top: Int, budget: inout OutputBudget) -> JSONValue {
        var rows: [JSONValue] = []
        for label in LabelStatistics.Order.total.sorted(labels).prefix(top) {
            guard budget.admit(label.json) else { break }
            rows.append(label.json)
        }
        return .array(rows)
    }

    /// The rows of a ranking: index, branch (when not 0), label and the measure named `unit`.
    static func ranking(_ events: [RankedEvent], unit: String, budget: inout OutputBudget) -> JSONValue {
        var rows: [JSONValue] = []
        for ranked in events {
            var row: JSONObject = ["index": .int(ranked.index)]
            if ranked.branch != 0 { row["branch"] = .int(ranked.branch) }
            row["label"] = .string(ranked.label)
            row[unit] = ranked.measure.rounded() == ranked.measure && abs(ranked.measure) < 1e15
                ? .int(Int64(ranked.measure)) : .double(ranked.measure)
            guard budget.admit(.object(row)) else { break }
            rows.append(.object(row))
        }
        return .array(rows)
    }
}
