import Foundation
import RewindSessionFile
import RewindWire

/// What the timeline's keys do on saved sessions (`rewind open` without a daemon to send commands through): export
/// (e) writes the session beside the recordings (``TimelineExportFile``); jump, skip, replay and dispatch need a
/// connected app and say so.
///
/// Threading: called on the timeline's thread.
package final class SavedSessionActions: TimelineActions {
    private let store: SessionStore
    private let exportDirectory: URL
    private let onQuit: () -> Void

    /// Actions on the sessions of `store`; exports are written to `exportDirectory` (default: the data directory's
    /// `exports` folder).
    package init(store: SessionStore, exportDirectory: URL? = nil, onQuit: @escaping () -> Void) {
        self.store = store
        self.exportDirectory = exportDirectory ?? TimelineExportFile.directory(of: store)
        self.onQuit = onQuit
    }

    /// The sentence every command that needs an app answers.
    package static let noApp = "this is a saved session: no app is connected to it"

    package func jump(session: String, index: Int) throws -> String { throw SavedSessionRefusal(Self.noApp) }
    package func skip(session: String, index: Int) throws -> String { throw SavedSessionRefusal(Self.noApp) }
    package func replay(session: String, from index: Int) throws -> String { throw SavedSessionRefusal(Self.noApp) }
    package func dispatch(session: String, action: JSONValue) throws -> String { throw SavedSessionRefusal(Self.noApp) }

    package func export(session: String) throws -> String {
        try TimelineExportFile.write(try SessionID(validating: session), of: store, into: exportDirectory)
    }

    package func quit() { onQuit() }
}

/// Why a command on a saved session was refused (its description is the sentence shown).
/// Threading: a plain value; `Sendable`.
package struct SavedSessionRefusal: Error, CustomStringConvertible, Sendable {
    /// The sentence shown in the status line.
    package var description: String
    /// A refusal saying `description`.
    package init(_ description: String) { self.description = description }
}
