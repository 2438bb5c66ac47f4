import ArgumentParser
import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTUI

/// `rewind open SESSION`: a saved session in the timeline. A session a running daemon is recording streams in; when
/// that daemon answers at `--host`/`--port` (its control connection), the keys that need the app (jump, step,
/// skip, replay, dispatch) go through it, as `rewind jump` does; otherwise the timeline only reads the file and
/// does not offer them.
struct OpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Show a saved session in the timeline (lazily: only what is on screen is read).",
        discussion: "A session that a running rewind is recording streams in; when that rewind listens at --host/--port, "
            + "Enter, < >, s, r and d reach its app through it."
    )

    @Argument(help: "The session: its id or a unique prefix (see 'rewind sessions'), or a capture file.")
    var session: String

    @OptionGroup var data: DataOptions
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        guard isatty(0) == 1 && isatty(1) == 1 else {
            throw CommandError("'rewind open' needs a terminal; use 'rewind export' to read a session in a pipe")
        }
        // A capture file stands for the session imported from it (CaptureFileArgument).
        let store = try CaptureFileArgument.isCaptureFile(session) ? data.openStore() : data.openStoreForReading()
        let id = try CaptureFileArgument.session(for: session, in: store) ?? SessionIDResolver.resolve(session, in: store)
        let isLive: Bool
        do {
            isLive = try store.openSession(id).metadata.endState == .live
        } catch {
            throw CommandError("\(error)")
        }
        try Self.showTimeline(of: id, isLive: isLive, store: store, connection: connection)
    }

    /// Shows session `id` of `store` in the timeline until the user quits. A live session is attached to the
    /// daemon at `connection` when that daemon records it (the app keys go through it); otherwise the timeline
    /// only reads the file. Also what `rewind` does when it attaches to another rewind as a viewer.
    static func showTimeline(of id: SessionID, isLive: Bool, store: SessionStore,
                             connection: ConnectionOptions) throws {
        // A live session: attach to the daemon recording it, if it answers where --host/--port say.
        let attached = isLive ? ControlTimelineActions.attach(to: connection, session: id, store: store) : nil
        let source = SessionTimelineSource(store: store, daemon: nil, address: "ws://\(connection.host):\(connection.port)",
                                           only: id, liveAppsReachable: attached != nil,
                                           liveAppCapabilities: attached?.appCapabilities)
        let actions: any TimelineActions = attached ?? SavedSessionActions(store: store, onQuit: {})
        do {
            try TimelineApp(dataSource: source, actions: actions, initialSession: id.rawValue).run()
        } catch {
            throw CommandError("\(error)")
        }
    }
}
