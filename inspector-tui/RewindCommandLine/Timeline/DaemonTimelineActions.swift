import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTUI
import RewindWire

/// What the timeline's keys do, carried out by the daemon: jump (Enter), skip / un-skip (the recomputed states
/// are recorded as a branch), replay from here (r), dispatch (d), export (e). Each returns the sentence shown in the status line, or throws one.
///
/// Threading: called on the timeline's thread; each command waits for the daemon's answer, which comes within its
/// command timeout (``Daemon/commandAnswerBound``).
final class DaemonTimelineActions: TimelineActions {
    private let daemon: Daemon
    private let store: SessionStore
    private let exportDirectory: URL
    private let onQuit: () -> Void

    /// Actions against `daemon` and its `store`; exports are written to `exportDirectory` (default: the data
    /// directory's `exports` folder, `TimelineExportFile`).
    init(daemon: Daemon, store: SessionStore, exportDirectory: URL? = nil, onQuit: @escaping () -> Void) {
        self.daemon = daemon
        self.store = store
        self.exportDirectory = exportDirectory ?? TimelineExportFile.directory(of: store)
        self.onQuit = onQuit
    }

    func jump(session: String, index: Int) throws -> String {
        let (daemon, id) = try live(session)
        _ = try daemon.waitFor { daemon.jump(session: id, to: Int64(index), completion: $0) }.get()
        return "jumped the app to event \(index)"
    }

    func skip(session: String, index: Int) throws -> String {
        let (daemon, id) = try live(session)
        let outcome = try daemon.waitForOutcome {
            daemon.skip(session: id, index: Int64(index), completion: $0)
        }.get()
        return outcome.summary
    }

    func replay(session: String, from index: Int) throws -> String {
        let (daemon, id) = try live(session)
        let result = try daemon.waitFor {
            daemon.replay(session: id, from: Int64(index), into: id, completion: $0)
        }.get()
        return "replayed \(result.states?.count ?? 0) actions from event \(index)"
    }

    func dispatch(session: String, action: JSONValue) throws -> String {
        let (daemon, id) = try live(session)
        _ = try daemon.waitFor { daemon.dispatch(session: id, action: action, completion: $0) }.get()
        return "dispatched \(action.serialized().prefix(60))"
    }

    func export(session: String) throws -> String {
        let id = try SessionID(validating: session)
        daemon.session(id)?.flush()
        return try TimelineExportFile.write(id, of: store, into: exportDirectory)
    }

    func quit() { onQuit() }

    private func live(_ session: String) throws -> (Daemon, SessionID) {
        (daemon, try SessionID(validating: session))
    }
}
