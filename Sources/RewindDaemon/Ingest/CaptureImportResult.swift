import Foundation
import RewindSessionFile
import RewindWire

/// What ``CaptureImport`` made of one run's capture files: the session and what it holds.
///
/// Threading: a plain value.
package struct CaptureImportResult: Sendable, Hashable {
    /// The new session's id.
    package var id: SessionID
    /// The app run the files came from.
    package var app: AppIdentity
    /// Why they were written.
    package var reason: CaptureHeader.Reason
    /// The app's words for a triggered capture (`captureNow(reason:)`), nil for offline parts.
    package var note: String?
    /// The files recorded into the session, in order.
    package var files: [URL]
    /// How many events (rows) the session holds.
    package var eventCount: Int64
    /// How many of them record an action.
    package var actionCount: Int64
    /// How many of the run's actions the session counts as lost (never in the files, or announced lost by them).
    package var lostActions: UInt64
    /// How the session ended: `clean` when the last file ends with the app's `goodbye`, else `interrupted`.
    package var endState: SessionEndState
    /// One sentence per thing a person should know (an incomplete last line passed over).
    package var warnings: [String]

    /// A result.
    package init(id: SessionID, app: AppIdentity, reason: CaptureHeader.Reason, note: String? = nil, files: [URL],
                 eventCount: Int64, actionCount: Int64, lostActions: UInt64, endState: SessionEndState,
                 warnings: [String] = []) {
        self.id = id
        self.app = app
        self.reason = reason
        self.note = note
        self.files = files
        self.eventCount = eventCount
        self.actionCount = actionCount
        self.lostActions = lostActions
        self.endState = endState
        self.warnings = warnings
    }
}
