import ArgumentParser
import Foundation
import RewindDaemon
import RewindTUI

/// `rewind open SESSION`: a saved session in the timeline.
struct OpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Show a saved session in the timeline (lazily: only what is on screen is read)."
    )

    @Argument(help: "The session id (see 'rewind sessions').")
    var session: String

    @OptionGroup var data: DataOptions

    func run() throws {
        guard isatty(0) == 1 && isatty(1) == 1 else {
            throw CommandError("'rewind open' needs a terminal; use 'rewind export' to read a session in a pipe")
        }
        let store = try data.openStore()
        let id: SessionID
        do {
            id = try store.resolveSessionID(session)
            _ = try store.openSession(id)
        } catch {
            throw CommandError("\(error)")
        }
        let source = SessionTimelineSource(store: store, daemon: nil, only: id)
        let actions = DaemonTimelineActions(daemon: nil, store: store, onQuit: {})
        do {
            try TimelineApp(dataSource: source, actions: actions, initialSession: id.rawValue).run()
        } catch {
            throw CommandError("\(error)")
        }
    }
}
