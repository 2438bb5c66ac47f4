import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTUI
import RewindWire

/// What the timeline's keys do in `rewind open` attached to the running daemon that records the session: jump,
/// skip, replay and dispatch go to that daemon over its control connection (as `rewind jump` and friends do);
/// export reads the session file.
///
/// Threading: the commands run on the timeline's command thread, one at a time; `ControlClient.request` blocks
/// that thread until the daemon answers (bounded). `quit()` runs on the UI thread.
final class ControlTimelineActions: TimelineActions {
    private let client: ControlClient
    private let store: SessionStore
    private let exportDirectory: URL
    /// What the session's app offered, as the daemon listed it when attaching (nil from a daemon that does not say).
    let appCapabilities: [String]?

    /// Actions through `client`; exports read `store` and are written to `exportDirectory` (default: the data
    /// directory's `exports` folder, `TimelineExportFile`).
    init(client: ControlClient, store: SessionStore, appCapabilities: [String]? = nil, exportDirectory: URL? = nil) {
        self.client = client
        self.appCapabilities = appCapabilities
        self.store = store
        self.exportDirectory = exportDirectory ?? TimelineExportFile.directory(of: store)
    }

    /// Connects to the daemon at `connection` and returns actions through it when that daemon has `session`
    /// live, with what its app offered (``appCapabilities``); nil when no daemon answers there or it does not
    /// record the session.
    static func attach(to connection: ConnectionOptions, session: SessionID, store: SessionStore)
        -> ControlTimelineActions? {
        guard let client = try? ControlClient(host: connection.host, port: connection.port,
                                              token: connection.effectiveToken, timeout: 1),
              let listed = try? client.request(.sessions, timeout: 3),
              case .array(let sessions)? = listed["sessions"],
              let entry = sessions.first(where: { $0["session"]?.stringValue == session.rawValue && $0["live"] == true })
        else { return nil }
        let info = try? ControlSessionInfo(json: entry)
        return ControlTimelineActions(client: client, store: store, appCapabilities: info?.capabilities)
    }

    func jump(session: String, index: Int) throws -> String {
        _ = try client.request(.jump(session: session, seq: UInt64(index)))
        return "jumped the app to event \(index)"
    }

    func skip(session: String, index: Int) throws -> String {
        let result = try client.request(.skip(session: session, seq: UInt64(index)))
        let skipped = result["skipped"]?.arrayValue?.compactMap(\.int64Value) ?? []
        guard !skipped.isEmpty else { return "nothing skipped any more: the app is back on the original timeline" }
        let states = result["states"]?.int64Value ?? 0
        let branch = result["branch"]?.int64Value ?? 0
        return "skipping event\(skipped.count == 1 ? "" : "s") " + skipped.map(String.init).joined(separator: ", ")
            + "; \(states) state\(states == 1 ? "" : "s") recomputed on branch \(branch)"
    }

    func replay(session: String, from index: Int) throws -> String {
        let result = try client.request(.replay(session: session, target: nil, fromSeq: UInt64(index), toSeq: nil))
        let states = result["states"]?.int64Value.map { "\($0) " } ?? ""
        return "replayed \(states)actions from event \(index)"
    }

    func dispatch(session: String, action: JSONValue) throws -> String {
        _ = try client.request(.dispatch(session: session, action: action))
        return "dispatched \(action.serialized().prefix(60))"
    }

    func export(session: String) throws -> String {
        let id = try SessionID(validating: session)
        return try TimelineExportFile.write(id, of: store, into: exportDirectory)
    }

    func quit() {}
}
