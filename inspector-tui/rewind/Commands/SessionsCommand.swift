import ArgumentParser
import Foundation
import RewindDaemon
import RewindWire

/// `rewind sessions [--json]`: the recorded sessions, newest first.
struct SessionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "List recorded sessions: id, app, start, events, actions lost, end state, file size."
    )

    @OptionGroup var data: DataOptions

    @Flag(name: .long, help: "One JSON object per session, one per line, for scripts.")
    var json = false

    func run() throws {
        guard let store = try data.openStoreForReadingIfRecorded() else {
            if !json { print("No sessions in \(data.directory.path) (it does not exist yet).") }
            return
        }
        var unreadable: [String] = []
        let sessions: [SessionMetadata]
        do {
            sessions = try store.listSessions { url, error in unreadable.append("\(url.lastPathComponent): \(error)") }
        } catch {
            throw CommandError("cannot list \(data.directory.path): \(error)")
        }
        // Actions that never reached the record (the `lost` rows); nil when the file cannot be read for it.
        let lost = sessions.map { session in try? store.openSession(session.id).actionsLost() }
        if json {
            for (session, lost) in zip(sessions, lost) { print(Self.json(session, actionsLost: lost).serialized()) }
        } else if sessions.isEmpty {
            print("No sessions in \(data.directory.path).")
        } else {
            print(Self.table(sessions, actionsLost: lost))
        }
        for problem in unreadable {
            FileHandle.standardError.write(Data("rewind: skipped \(TerminalText.escaped(problem))\n".utf8))
        }
    }

    static func json(_ session: SessionMetadata, actionsLost: Int64? = nil) -> JSONValue {
        var object = JSONObject()
        object["id"] = .string(session.id.rawValue)
        object["app"] = .string(session.appName)
        if let instance = session.instance { object["instance"] = .string(instance) }
        object["startedAt"] = .string(ISO8601DateFormatter().string(from: session.startedAt))
        if let ended = session.endedAt { object["endedAt"] = .string(ISO8601DateFormatter().string(from: ended)) }
        object["events"] = .int(session.eventCount)
        if let actionsLost { object["actionsLost"] = .int(actionsLost) }
        object["end"] = .string(session.endState.rawValue)
        object["bytes"] = .int(session.fileBytes)
        if let stateType = session.stateType { object["stateType"] = .string(stateType) }
        return .object(object)
    }

    static func table(_ sessions: [SessionMetadata], actionsLost: [Int64?] = []) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        let rows = sessions.enumerated().map { number, session in
            let lost = number < actionsLost.count ? actionsLost[number] : nil
            return [session.id.rawValue, TerminalText.escaped(session.appName), formatter.string(from: session.startedAt),
                    String(session.eventCount), lost.map(String.init) ?? "?", session.endState.rawValue,
                    ByteCount.format(session.fileBytes)]
        }
        return TextTable(header: ["ID", "APP", "STARTED", "EVENTS", "LOST", "END", "SIZE"],
                         rightAligned: [3, 4, 6]).render(rows)
    }
}
