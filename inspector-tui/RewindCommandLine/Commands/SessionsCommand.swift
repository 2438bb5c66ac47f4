import ArgumentParser
import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTUI
import RewindWire

/// `rewind sessions [--json]`: the recorded sessions, newest first. `--delete SESSION` removes saved sessions'
/// files and `--prune --older-than AGE` every session that ended longer ago than AGE; a session being recorded is
/// never removed (its recorder holds its lock).
struct SessionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "List recorded sessions: id, app, start, events, actions lost, end state, file size.",
        discussion: "--delete and --prune remove saved sessions' files; a session being recorded is never removed."
    )

    @OptionGroup var data: DataOptions

    @Flag(name: .long, help: "One JSON object per session, one per line, for scripts.")
    var json = false

    @Option(name: .long, help: ArgumentHelp("Delete this saved session (an id or a unique prefix; repeatable).",
                                            valueName: "session"))
    var delete: [String] = []

    @Flag(name: .long, help: "Delete every session that ended (or, never ended, started) longer ago than --older-than.")
    var prune = false

    @Option(name: .customLong("older-than"),
            help: ArgumentHelp("With --prune: an age, a number and a unit: 90m, 12h, 7d, 2w.", valueName: "age"))
    var olderThan: String?

    func validate() throws {
        if prune != (olderThan != nil) {
            throw ValidationError(prune ? "--prune needs --older-than AGE (e.g. --older-than 7d)"
                                        : "--older-than goes with --prune")
        }
        if let olderThan, Self.seconds(olderThan) == nil {
            throw ValidationError("--older-than \(olderThan): an age is a number and a unit, s, m, h, d or w (e.g. 7d)")
        }
        if (prune || !delete.isEmpty) && json {
            throw ValidationError("--json lists sessions; it does not go with --delete or --prune")
        }
    }

    /// The seconds of an age written `N` + `s`, `m`, `h`, `d` or `w` (N a whole or decimal number ≥ 0).
    static func seconds(_ age: String) -> Double? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604_800]
        guard let unit = age.last.flatMap({ units[$0] }), let number = Double(age.dropLast()), number >= 0,
              number.isFinite else { return nil }
        return number * unit
    }

    func run() throws {
        if prune || !delete.isEmpty {
            try remove()
            return
        }
        guard let store = try data.openStoreForReadingIfRecorded() else {
            if !json { CommandStreams.current.printLine("No sessions in \(data.directory.path) (it does not exist yet).") }
            return
        }
        var unreadable: [String] = []
        let sessions: [SessionMetadata]
        do {
            sessions = try store.listSessions { _, error in unreadable.append("\(error)") }
        } catch {
            throw CommandError("cannot list \(data.directory.path): \(error)")
        }
        // Actions that never reached the record (the `lost` rows); nil when the file cannot be read for it.
        let lost = sessions.map { session in try? store.openSession(session.id).actionsLost() }
        if json {
            for (session, lost) in zip(sessions, lost) { CommandStreams.current.printLine(JSONValue.object(session.listingJSON(actionsLost: lost)).serialized()) }
        } else if sessions.isEmpty {
            CommandStreams.current.printLine(unreadable.isEmpty ? "No sessions in \(data.directory.path)."
                : "No readable sessions in \(data.directory.path) (\(unreadable.count) unreadable file"
                    + "\(unreadable.count == 1 ? "" : "s"), on standard error).")
        } else {
            CommandStreams.current.printLine(Self.table(sessions, actionsLost: lost))
        }
        // A file that is not a readable session is named with what is wrong and what to do.
        for problem in unreadable {
            CommandStreams.current.writeError("rewind: left out: \(TerminalText.escaped(problem)) "
                + "(move it out of \(data.directory.path), or delete it)\n")
        }
    }

    /// `--delete` and `--prune`: removes the sessions named or too old, one line each; a session being recorded
    /// is kept (and named). Fails when a session named cannot be deleted.
    private func remove() throws {
        let store = try data.openStoreForReading()
        var removed: [SessionMetadata] = []
        var kept: [String] = []
        func remove(_ session: SessionMetadata) throws(SessionStoreError) {
            try store.deleteSession(session.id)
            removed.append(session)
            CommandStreams.current.printLine("deleted \(session.id) (\(TerminalText.escaped(session.appName)), \(session.eventCount) event\(session.eventCount == 1 ? "" : "s"), "
                  + "\(ByteCount.format(session.fileBytes)))")
        }
        let sessions: [SessionMetadata]
        do {
            sessions = try store.listSessions()
        } catch {
            throw CommandError("cannot list \(data.directory.path): \(error)")
        }
        for text in delete {
            let id = try SessionIDResolver.resolve(text, in: store)
            guard let session = sessions.first(where: { $0.id == id }) else {
                throw CommandError("cannot read session \(id) in \(data.directory.path)")
            }
            do {
                try remove(session)
            } catch .sessionInUse {
                throw CommandError("session \(id) is being recorded by a running rewind: it can be deleted once "
                    + "its app disconnects")
            } catch {
                throw CommandError("cannot delete session \(id): \(error)")
            }
        }
        if prune, let age = olderThan.flatMap(Self.seconds) {
            let cutoff = Date().addingTimeInterval(-age)
            for session in sessions where (session.endedAt ?? session.startedAt) < cutoff
                && !removed.contains(where: { $0.id == session.id }) {
                do {
                    try remove(session)
                } catch .sessionInUse {
                    kept.append(session.id.rawValue)
                } catch {
                    throw CommandError("cannot delete session \(session.id): \(error)")
                }
            }
            let bytes = removed.reduce(Int64(0)) { $0 + $1.fileBytes }
            CommandStreams.current.printLine("pruned \(removed.count) session\(removed.count == 1 ? "" : "s") older than \(olderThan ?? ""), "
                  + "\(ByteCount.format(bytes)) freed" + (kept.isEmpty ? "" : "; kept \(kept.joined(separator: ", ")), "
                  + "being recorded"))
        }
    }

    static func table(_ sessions: [SessionMetadata], actionsLost: [Int64?] = []) -> String {
        // Local time with its offset from UTC: the ids beside it are in UTC (20261129-140001-…), and a time
        // without a zone next to them reads as if it were the same clock.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss xxx"
        let rows = sessions.enumerated().map { number, session in
            let lost = number < actionsLost.count ? actionsLost[number] : nil
            return [session.id.rawValue, TerminalText.escaped(session.appName), formatter.string(from: session.startedAt),
                    Formatting.grouped(Int(session.eventCount)), lost.map { Formatting.grouped(Int($0)) } ?? "?",
                    session.endState.rawValue,
                    ByteCount.format(session.fileBytes)]
        }
        return TextTable(header: ["ID", "APP", "STARTED", "EVENTS", "LOST", "END", "SIZE"],
                         rightAligned: [3, 4, 6]).render(rows)
    }
}
