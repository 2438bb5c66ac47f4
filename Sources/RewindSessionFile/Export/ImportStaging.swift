import Foundation

/// Where an import writes the sessions it makes before they appear in the data directory: the data directory's
/// `.importing` folder (hidden from listings), so that a killed import leaves no session that reads like an
/// interrupted recording. A session is created in the staging folder, finished there, and moved into the data
/// directory only once complete (``publish(_:)``: one `rename`, so readers see all of it or nothing); a failed
/// import deletes what it staged (``abandon(_:)``, ``discard(_:)``).
///
/// Files an earlier, killed import left in the folder (their lock is free) are deleted when a staging is opened; one
/// another import is still writing is left alone.
///
/// Used by every importer (``SessionImporter`` for exports, the daemon's capture import for capture files).
///
/// Threading: immutable; its methods may be called from any thread (each works on the files it is given).
package struct ImportStaging: Sendable {
    /// The data directory the imported sessions are published into.
    package let target: SessionStore
    /// The staging folder, as a store: create the imported sessions here.
    package let store: SessionStore

    /// Opens (creating it when missing) the staging folder of `target`'s data directory, deleting what a killed
    /// import left there.
    package init(into target: SessionStore) throws(SessionStoreError) {
        self.target = target
        store = try SessionStore(directory: target.directory.appendingPathComponent(".importing", isDirectory: true),
                                 options: target.options)
        for id in (try? store.sessionIDs()) ?? [] { try? store.deleteSession(id) }
    }

    /// Commits everything appended to `recording` (a session of ``store``) and finishes it as `endState` at
    /// `endedAt` (nil: now; imports pass the time their input says); throws the writer's error when a write failed.
    package func finish(_ recording: SessionRecording, as endState: SessionEndState,
                        endedAt: Date?) throws(SessionStoreError) {
        recording.flush()
        if let error = recording.lastError { throw error }
        recording.finish(endState: endState, endedAt: endedAt)
        if let error = recording.lastError { throw error }
    }

    /// Moves the finished session `id` from the staging folder into the data directory (one `rename`: readers see
    /// all of it or nothing). On failure the staged file is deleted.
    package func publish(_ id: SessionID) throws(SessionStoreError) {
        let source = store.fileURL(for: id).path, destination = target.fileURL(for: id).path
        guard !FileManager.default.fileExists(atPath: destination) else {
            try? store.deleteSession(id)
            throw .unwritable(path: destination, reason: "a session with the imported session's id appeared meanwhile")
        }
        guard rename(source, destination) == 0 else {
            let reason = String(cString: strerror(errno))
            try? store.deleteSession(id)
            throw .unwritable(path: destination, reason: reason)
        }
    }

    /// Gives up `recording` (a session of ``store`` being written): finishes it and deletes its file.
    package func abandon(_ recording: SessionRecording) {
        recording.finish(endState: .interrupted)
        discard(recording.id)
    }

    /// Deletes the staged session `id` (finished, not published).
    package func discard(_ id: SessionID) {
        try? store.deleteSession(id)
    }
}
