import ArgumentParser
import Foundation
import RewindDaemon
import RewindWire

/// `rewind sessions [--json]`: the recorded sessions, newest first.
struct SessionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "List recorded sessions: id, app, start, events, end state, file size."
    )

    @OptionGroup var data: DataOptions

    @Flag(name: .long, help: "One JSON object per session, one per line, for scripts.")
    var json = false

    func run() throws {
        let store = try data.openStore()
        var unreadable: [String] = []
        let sessions: [SessionMetadata]
        do {
            sessions = try store.listSessions { url, error in unreadable.append("\(url.lastPathComponent): \(error)") }
        } catch {
            throw CommandError("cannot list \(data.directory.path): \(error)")
        }
        if json {
            for session in sessions { print(Self.json(session).serialized()) }
        } else if sessions.isEmpty {
            print("No sessions in \(data.directory.path).")
        } else {
            print(Self.table(sessions))
        }
        for problem in unreadable {
            FileHandle.standardError.write(Data("rewind: skipped \(TerminalText.escaped(problem))\n".utf8))
        }
    }

    static func json(_ session: SessionMetadata) -> JSONValue {
        var object = JSONObject()
        object["id"] = .string(session.id.rawValue)
        object["app"] = .string(session.appName)
        if let instance = session.instance { object["instance"] = .string(instance) }
        object["startedAt"] = .string(ISO8601DateFormatter().string(from: session.startedAt))
        if let ended = session.endedAt { object["endedAt"] = .string(ISO8601DateFormatter().string(from: ended)) }
        object["events"] = .int(session.eventCount)
        object["end"] = .string(session.endState.rawValue)
        object["bytes"] = .int(session.fileBytes)
        if let stateType = session.stateType { object["stateType"] = .string(stateType) }
        return .object(object)
    }

    static func table(_ sessions: [SessionMetadata]) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        let rows = sessions.map { session in
            [session.id.rawValue, TerminalText.escaped(session.appName), formatter.string(from: session.startedAt),
             String(session.eventCount), session.endState.rawValue, ByteCount.format(session.fileBytes)]
        }
        return TextTable(header: ["ID", "APP", "STARTED", "EVENTS", "END", "SIZE"],
                         rightAligned: [3, 5]).render(rows)
    }
}
