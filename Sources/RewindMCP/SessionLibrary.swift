import Foundation
import RewindSessionFile
import RewindWire

/// The sessions `rewind mcp` answers about: the session files of one data directory, read through
/// `SessionReader` (finished ones and those being recorded right now), and the running daemon for what only it
/// knows (what a live app offers).
///
/// Readers are opened on first use and kept; a session being recorded is refreshed before each use, so that an
/// answer covers every event committed when it is asked.
///
/// Threading: every method may be called from any thread; the reader cache is guarded by a lock, and
/// `SessionReader` serializes its own calls.
package final class SessionLibrary: @unchecked Sendable {  // mutable state (`readers`) guarded by `lock`
    /// The data directory.
    package let directory: URL
    /// The running daemon, for live sessions; nil when none is configured.
    package let daemon: (any DaemonControl)?
    private let lock = NSLock()
    private var readers: [SessionID: SessionReader] = [:]

    /// The sessions in `directory`, with `daemon` for live ones.
    package init(directory: URL, daemon: (any DaemonControl)?) {
        self.directory = directory
        self.daemon = daemon
    }

    /// The store of the data directory, or a failure naming it (never created).
    package func store() throws(ToolFailure) -> SessionStore {
        do {
            return try SessionStore(directory: directory, creating: false)
        } catch {
            throw ToolFailure("cannot open the session directory \(directory.path): \(error) (start `rewind mcp` "
                + "with --data DIR where the sessions are)")
        }
    }

    /// The reader of the session `text` names (an id or a unique prefix), refreshed when it is being recorded.
    package func reader(_ text: String) throws(ToolFailure) -> SessionReader {
        let store = try store()
        let id: SessionID
        do {
            id = try store.resolveSessionID(text)
        } catch {
            throw ToolFailure("\(error) (list_sessions shows the sessions and their ids)")
        }
        if let cached = lock.withLock({ readers[id] }) {
            if cached.metadata.endState == .live { try? cached.refresh() }
            return cached
        }
        do {
            let reader = try store.openSession(id)
            lock.withLock { readers[id] = reader }
            return reader
        } catch {
            throw ToolFailure("cannot read session \(id): \(error)")
        }
    }

    /// The daemon's `sessions` listing by session id (live sessions only), or why it could not be had.
    package func liveSessions() -> (sessions: [String: ControlSessionInfo], problem: String?) {
        guard let daemon else { return ([:], "no daemon configured") }
        do {
            let result = try daemon.request(.sessions)
            var sessions: [String: ControlSessionInfo] = [:]
            for entry in result["sessions"]?.arrayValue ?? [] {
                guard let info = try? ControlSessionInfo(json: entry), info.live else { continue }
                sessions[info.session] = info
            }
            return (sessions, nil)
        } catch {
            return ([:], "\(error)")
        }
    }
}
