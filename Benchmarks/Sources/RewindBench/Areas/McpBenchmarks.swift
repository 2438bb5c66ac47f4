import BenchKit
import Foundation
import RewindWire

/// `rewind mcp`'s read tools on the seek benchmarks' long session (issue 32: each answers within 1 s, release):
/// the release `rewind mcp` as a child process, spoken to as an MCP client does — JSON-RPC lines on its standard
/// input and output — one `tools/call` at a time, timed from the request written to the answer read.
///
/// Threading: main actor, as the runner.
@MainActor
enum McpBenchmarks {
    static func run(_ context: BenchContext, session: RecordedSession) throws -> AreaReport {
        let programs = try OutOfProcessBenchmarks.programs(quick: context.quick)
        let server = try McpChild(rewind: programs.rewind, data: session.store.directory)
        defer { server.stop() }
        let id = JSONValue.string(session.id.rawValue)
        let last = Int64(session.events)
        let calls: [(String, JSONObject)] = [
            ("list_sessions", [:]),
            ("list_events", ["session": id, "from": .int(last / 2), "limit": 100]),
            ("get_state", ["session": id, "event": .int(last - 1)]),
            ("get_state", ["session": id, "event": .int(last / 2), "pointer": "/sections/0/items/0/value"]),
            ("diff_states", ["session": id, "from": 1, "to": .int(last)]),
            ("path_history", ["session": id, "pointer": "/sections/0/items/0/value"]),
            ("search_events", ["session": id, "query": "^touch$", "from": .int(last / 2)]),
            ("search_events", ["session": id, "query": "action:\"value\":1999999", "from": .int(max(1, last - 200_000))]),
            ("first_event_where", ["session": id, "condition": "/sections/0/items/0/value > 1999999",
                                   "from": .int(max(0, last - 100_000))]),
            ("session_statistics", ["session": id]),
        ]
        let plan = context.pick(full: SamplingPlan(minSamples: 5, minSeconds: 1, maxSeconds: 20),
                                quick: SamplingPlan(minSamples: 2, minSeconds: 0.1, maxSeconds: 5))
        let target = Target.atMost(nanoseconds: 1_000_000_000)
        var rows: [ReportRow] = []
        for (tool, arguments) in calls {
            context.progress("mcp: \(tool)")
            var bytes = 0
            let samples = try Sampler.time(plan, warmup: 1) { bytes = try server.call(tool, arguments) }
            let shown = JSONValue.object(arguments).serialized().replacingOccurrences(of: session.id.rawValue, with: "S")
            rows.append(ReportRow(
                "`\(tool)` \(shown)", .nanoseconds(samples.median),
                detail: "max \(Quantity.duration(samples.maximum)) of \(samples.count); answer "
                    + "\(Quantity.grouped(Double(bytes))) bytes", target: target))
        }
        return AreaReport(
            title: "rewind mcp",
            method: """
                The seek benchmarks' session (\(Quantity.grouped(Double(session.events))) events, a \
                \(Quantity.grouped(Double(session.stateBytes)))-byte state) served by `rewind mcp` \
                (\(programs.isRelease ? "release" : "debug") build) as a child process; each read tool called over \
                its standard input and output as an MCP client does (JSON-RPC lines), one call at a time, timed from \
                the request written to the answer read, page cache warm. The searches are bounded by their default \
                scan of 100,000 events (`scanLimit`); the label search seeks through the label index.
                """,
            rows: rows)
    }
}
