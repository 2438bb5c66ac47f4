import ArgumentParser
import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTUI
import RewindWire

/// `rewind history SESSION POINTER [--at SEQ] [--branch N] [--limit N] [--json]`: the events that changed the value
/// at a JSON Pointer, newest first (docs/SESSION-FORMAT.md, "The path index").
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List the events that changed the value at a JSON Pointer, newest first.",
        discussion: """
            An event counts when its patch changed the location, something under it or one of its ancestors, or \
            moved it within an array, or when it put a whole state in place (snapshot, jump…) with another value \
            there. POINTER is an RFC 6901 JSON Pointer: '' is the whole state, '/todos/0/title' a member. \
            With --json each line is a JSON object.
            """
    )

    @Argument(help: "The session id, or a unique prefix of it (see 'rewind sessions').")
    var session: String

    @Argument(help: ArgumentHelp("The location, e.g. /todos/0/done.", valueName: "pointer"))
    var pointer: String

    @Option(name: .long, help: ArgumentHelp("Only events up to this one (default: the last).", valueName: "seq"))
    var at: Int64?

    @Option(name: .long, help: ArgumentHelp("The branch whose lineage to follow (default: 0, the main line).",
                                            valueName: "n"))
    var branch: Int64 = 0

    @Option(name: .long, help: ArgumentHelp("At most this many events (the newest).", valueName: "n"))
    var limit: Int?

    @Flag(name: .long, help: "One JSON object per line.")
    var json = false

    @OptionGroup var data: DataOptions

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        if let at, at < 0 { throw ValidationError("--at must be an event number (0 or more)") }
        if branch < 0 { throw ValidationError("--branch must be 0 or more") }
    }

    func run() throws {
        let location: JSONPointer
        do {
            location = try JSONPointer(pointer)
        } catch {
            throw CommandError("'\(pointer)' is not a JSON Pointer: \(error) (a pointer is '' or starts with '/')")
        }
        let reader = try SessionArguments.open(session, data: data)
        try SessionArguments.requireBranch(branch, in: reader)
        let changes: [StateChange]
        var rows: [(StateChange, RecordedEvent)] = []
        do {
            changes = try reader.history(of: location, through: at, branch: branch, limit: limit)
            for change in changes { rows.append((change, try reader.event(at: change.index))) }
        } catch {
            throw CommandError("\(error)")
        }
        let started = reader.metadata.startedAt.timeIntervalSince1970
        if json {
            for (change, event) in rows {
                var object = JSONObject()
                object["index"] = .int(change.index)
                if change.branch != 0 { object["branch"] = .int(change.branch) }
                object["time"] = .double(event.time)
                object["kind"] = .string(event.kind.rawValue)
                if let label = event.label { object["label"] = .string(label) }
                object["cause"] = .string(change.cause.rawValue)
                CommandStreams.current.printLine(JSONValue.object(object).serialized())
            }
            return
        }
        if rows.isEmpty {
            CommandStreams.current.printLine("no event changed \(location.isRoot ? "the state" : location.description)")
            return
        }
        var table = TextTable(header: ["EVENT", "TIME", "KIND", "LABEL", "HOW"])
        table.rightAligned = [0]
        CommandStreams.current.printLine(table.render(rows.map { change, event in
            [Formatting.grouped(Int(event.index)) + (change.branch != 0 ? " (branch \(change.branch))" : ""),
             // The timeline's conventions: `+6:08.064` past a minute, `1,000,062`.
             Formatting.relativeTime(event.time - started), event.kind.rawValue,
             TerminalText.escaped(event.label ?? ""),
             change.cause == .patch ? "patch" : "state replaced"]
        }))
    }
}
