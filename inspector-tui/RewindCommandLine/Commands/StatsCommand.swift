import ArgumentParser
import Foundation
import RewindSessionFile
import RewindTUI
import RewindWire

/// `rewind stats SESSION [--from A] [--to B] [--sort ORDER] [--top N] [--json]`: where a session's cost went — each
/// action label's count, reducer time (total, p99, slowest) and patch sizes, then the slowest and the largest single
/// events. The same table as the timeline's stats view (`S`).
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Show what each action label cost (count, reducer time, patch size) and the costliest events.",
        discussion: """
            Reducer times are the app's own measurements (microseconds; rows without one, such as snapshots, count \
            but are not timed); p99 is the nearest-rank 99th percentile; patch sizes are bytes of the stored JSON \
            Patch. Every branch of the session counts. With --json the whole answer is one JSON object.
            """
    )

    @Argument(help: "The session id, or a unique prefix of it (see 'rewind sessions').")
    var session: String

    @Option(name: .long, help: ArgumentHelp("Only events from this one (default: the first).", valueName: "seq"))
    var from: Int64?

    @Option(name: .long, help: ArgumentHelp("Only events up to this one (default: the last).", valueName: "seq"))
    var to: Int64?

    @Option(name: .long, help: ArgumentHelp("The labels' order: count, total (reducer time), p99, patch.",
                                            valueName: "order"))
    var sort: String = LabelStatistics.Order.count.rawValue

    @Option(name: .long, help: ArgumentHelp("How many labels, and how many of the slowest and largest events.",
                                            valueName: "n"))
    var top: Int = 10

    @Flag(name: .long, help: "One JSON object.")
    var json = false

    @OptionGroup var data: DataOptions

    func validate() throws {
        if top < 1 { throw ValidationError("--top must be at least 1") }
        if let from, from < 1 { throw ValidationError("--from must be an event number (1 or more)") }
        if let from, let to, to < from { throw ValidationError("--to must not come before --from") }
        if LabelStatistics.Order(rawValue: sort) == nil {
            throw ValidationError("--sort must be one of "
                + LabelStatistics.Order.allCases.map(\.rawValue).joined(separator: ", ") + ", not '\(sort)'")
        }
    }

    func run() throws {
        let reader = try SessionArguments.open(session, data: data)
        let order = LabelStatistics.Order(rawValue: sort) ?? .count
        let range = (from ?? 1)...min(to ?? reader.eventCount, reader.eventCount)
        let statistics: SessionStatistics
        do {
            statistics = range.isEmpty ? SessionStatistics(labels: [], slowest: [], largest: [])
                : try reader.sessionStatistics(in: range, rankingLimit: top)
        } catch {
            throw CommandError("\(error)")
        }
        let labels = order.sorted(statistics.labels)
        let (slowest, largest) = (statistics.slowest, statistics.largest)
        if json {
            CommandStreams.current.printLine(Self.json(reader: reader, range: range, labels: labels, top: top,
                                                       slowest: slowest, largest: largest).serialized())
            return
        }
        guard !labels.isEmpty else {
            CommandStreams.current.printLine("session \(reader.id) has no events"
                + (reader.eventCount == 0 ? "" : " in \(range.lowerBound)–\(range.upperBound)"))
            return
        }
        let shown = labels.prefix(top)
        CommandStreams.current.printLine("\(reader.id): \(Formatting.grouped(Int(range.count))) events, "
            + "\(labels.count) label\(labels.count == 1 ? "" : "s")"
            + (labels.count > shown.count ? " (the first \(shown.count) by \(order.rawValue); --top N for more)" : "")
            + "\n")
        var table = TextTable(header: ["LABEL", "COUNT", "REDUCER TOTAL", "P99", "SLOWEST", "PATCHES", "LARGEST",
                                       "FIRST"])
        table.rightAligned = [1, 2, 3, 4, 5, 6, 7]
        CommandStreams.current.printLine(table.render(shown.map { label in
            [TerminalText.escaped(label.label), Formatting.grouped(Int(label.count)),
             label.timedCount == 0 ? "—" : Formatting.duration(micros: label.reducerTotalMicros),
             label.reducerP99Micros.map { Formatting.duration(micros: $0) } ?? "—",
             label.reducerMaxMicros.map { Formatting.duration(micros: $0) } ?? "—",
             Formatting.bytes(label.patchBytesTotal), Formatting.bytes(label.patchBytesMax),
             "#" + Formatting.grouped(Int(label.firstIndex))]
        }))
        for (title, ranked, measure) in [
            ("Slowest reducers", slowest, { (event: RankedEvent) in
                Formatting.duration(micros: event.measure) }),
            ("Largest patches", largest, { (event: RankedEvent) in
                Formatting.bytes(Int64(event.measure)) }),
        ] where !ranked.isEmpty {
            CommandStreams.current.printLine("\n\(title):")
            var events = TextTable(header: ["EVENT", "LABEL", title == "Slowest reducers" ? "REDUCER" : "PATCH"])
            events.rightAligned = [0, 2]
            CommandStreams.current.printLine(events.render(ranked.map { ranked in
                ["#" + Formatting.grouped(Int(ranked.index)) + (ranked.branch != 0 ? " (branch \(ranked.branch))" : ""),
                 TerminalText.escaped(ranked.label), measure(ranked)]
            }))
        }
    }

    /// The answer as one JSON object (`--json`).
    private static func json(reader: SessionReader, range: ClosedRange<Int64>, labels: [LabelStatistics], top: Int,
                             slowest: [RankedEvent], largest: [RankedEvent]) -> JSONValue {
        func ranked(_ events: [RankedEvent], measure: String, integer: Bool) -> JSONValue {
            .array(events.map { ranked in
                var object: JSONObject = ["index": .int(ranked.index), "branch": .int(ranked.branch),
                                          "label": .string(ranked.label)]
                object[measure] = integer ? .int(Int64(ranked.measure)) : .double(ranked.measure)
                return .object(object)
            })
        }
        var answer: JSONObject = ["session": .string(reader.id.rawValue), "eventCount": .int(reader.eventCount)]
        if !range.isEmpty {
            answer["from"] = .int(range.lowerBound)
            answer["to"] = .int(range.upperBound)
        }
        answer["labels"] = .array(labels.prefix(top).map(\.json))
        answer["labelCount"] = .int(Int64(labels.count))
        answer["slowestReducers"] = ranked(slowest, measure: "reducerMicros", integer: false)
        answer["largestPatches"] = ranked(largest, measure: "patchBytes", integer: true)
        return .object(answer)
    }
}
