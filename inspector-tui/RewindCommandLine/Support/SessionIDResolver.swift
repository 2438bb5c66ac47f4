import Foundation
import RewindDaemon
import RewindSessionFile
import RewindWire

/// Turns the session id a user typed — the whole id or any unique prefix of it — into one session's id, the same
/// way for every command that takes one: against the session files of a directory (`export`, `open`, `verify` and
/// the other commands that read a session file) or against the sessions of a running daemon (`jump`, `dispatch`,
/// `skip`, `replay`, `tail`). A prefix matching several sessions names them; an id matching none says where it was
/// looked for; a command that needs a live app is refused at once for a session whose app has gone.
///
/// Threading: stateless; the daemon look-ups block the calling thread on the control connection (bounded).
enum SessionIDResolver {
    /// The most candidates an ambiguity error lists.
    static let listedCandidates = 10

    /// The ids among `candidates` that `text` names: the one equal to it, else every one starting with it.
    /// Throws for text that cannot be an id.
    static func matches(_ text: String, among candidates: [SessionID]) throws(CommandError) -> [SessionID] {
        let wanted = try validated(text)
        if candidates.contains(wanted) { return [wanted] }
        return candidates.filter { $0.rawValue.hasPrefix(wanted.rawValue) }.sorted()
    }

    /// The id among `candidates` that `text` names (``matches(_:among:)``), or an error: for none, "no session …
    /// in `place`" followed by `hint`; for several, the candidates (each shown by `describe`).
    static func resolve(_ text: String, among candidates: [SessionID], in place: String, hint: String = "",
                        describe: (SessionID) -> String = { $0.rawValue }) throws(CommandError) -> SessionID {
        let found = try matches(text, among: candidates)
        if found.count == 1 { return found[0] }
        if found.isEmpty { throw CommandError("no session \"\(text)\" in \(place)\(hint)") }
        var shown = found.prefix(listedCandidates).map(describe).joined(separator: ", ")
        if found.count > listedCandidates { shown += ", and \(found.count - listedCandidates) more" }
        throw CommandError("session id \"\(text)\" is ambiguous: \(found.count) sessions in \(place) start with it: "
            + "\(shown); type more of the id")
    }

    // MARK: Session files

    /// The session of `store` that `text` names (a whole id or a unique prefix).
    static func resolve(_ text: String, in store: SessionStore) throws(CommandError) -> SessionID {
        let ids: [SessionID]
        do {
            ids = try store.sessionIDs()
        } catch {
            throw CommandError("\(error)")
        }
        let directory = store.directory.path
        let listing = "rewind sessions" + dataOption(for: directory)
        return try resolve(text, among: ids, in: "the session directory \(directory)", hint: " (see '\(listing)')")
    }

    // MARK: A running daemon's sessions

    /// The sessions the daemon behind `client` has seen since it started, live and ended.
    static func daemonSessions(_ client: ControlClient) throws -> [ControlSessionInfo] {
        try daemonListing(client).sessions
    }

    /// The daemon's `sessions` answer: its sessions, and the directory it records into (nil from a daemon that
    /// does not say).
    static func daemonListing(_ client: ControlClient) throws -> (sessions: [ControlSessionInfo],
                                                                    dataDirectory: String?) {
        let reply = try client.request(.sessions, timeout: 5)
        guard case .array(let list)? = reply["sessions"] else {
            throw CommandError("the daemon at \(client.address) answered 'sessions' with something unreadable")
        }
        let directory: String? = if case .string(let path)? = reply["dataDirectory"] { path } else { nil }
        return (list.compactMap { try? ControlSessionInfo(json: $0) }, directory)
    }

    /// `rewind open SESSION`, with the `--port` and `--data` that reach the recording of the daemon on `port`
    /// recording into `dataDirectory`: each only when it is not the default, so that the command works as printed.
    static func openCommand(_ session: String, port: Int, dataDirectory: String?) -> String {
        var command = "rewind open \(session)"
        if port != WireProtocol.defaultPort { command += " --port \(port)" }
        return command + (dataDirectory.map(dataOption(for:)) ?? "")
    }

    /// ` --data DIR` for a command reading `directory`, or nothing when it is the default one (`~/.rewind/sessions`).
    static func dataOption(for directory: String) -> String {
        URL(fileURLWithPath: directory).standardizedFileURL == SessionStore.defaultDirectory.standardizedFileURL
            ? "" : " --data \(directory)"
    }

    /// The session of the daemon that `text` names, whether its app is connected or not.
    static func resolve(_ text: String, among sessions: [ControlSessionInfo],
                        of client: ControlClient) throws(CommandError) -> ControlSessionInfo {
        var byID: [SessionID: ControlSessionInfo] = [:]
        for info in sessions {
            if let id = try? SessionID(validating: info.session) { byID[id] = info }
        }
        let live = sessions.filter(\.live)
        let known = live.isEmpty ? "no app is connected to it now"
            : "its live sessions: " + live.prefix(listedCandidates).map(describe).joined(separator: ", ")
        let id = try resolve(text, among: Array(byID.keys), in: "the rewind daemon at \(client.address)",
                             hint: " (\(known); 'rewind sessions' lists the saved ones)") { id in
            byID[id].map(describe) ?? id.rawValue
        }
        guard let info = byID[id] else { throw CommandError("no session \"\(text)\" in the daemon at \(client.address)") }
        return info
    }

    /// The live session of the daemon behind `client` that `text` names, for a command that needs its app
    /// (`what`, e.g. "jump"): refused at once when the session has ended.
    static func resolveLive(_ text: String, with client: ControlClient, for what: String) throws -> SessionID {
        let listing = try daemonListing(client)
        let info = try resolve(text, among: listing.sessions, of: client)
        guard info.live else {
            let open = openCommand(info.session, port: client.port, dataDirectory: listing.dataDirectory)
            throw CommandError("session \(info.session) has ended: its app (\(TerminalText.escaped(info.app.name))) is no "
                + "longer connected to the daemon at \(client.address), so it cannot \(what); "
                + "'\(open)' shows the recording")
        }
        return try validated(info.session)
    }

    /// `app, live` or `app, ended` after the id, for lists of candidates.
    static func describe(_ info: ControlSessionInfo) -> String {
        "\(info.session) (\(TerminalText.escaped(info.app.name)), \(info.live ? "live" : "ended"))"
    }

    /// The id in a daemon's answer, validated.
    static func validated(_ text: String) throws(CommandError) -> SessionID {
        do {
            return try SessionID(validating: text)
        } catch {
            throw CommandError("\(error)")
        }
    }
}
