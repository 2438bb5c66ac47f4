import Foundation
import RewindDaemon
import RewindSessionFile
import RewindWire

/// A session file of `count` small events recorded through the store's own API (`SessionStore.createSession` +
/// `SessionRecording.append`), in a data directory of its own: event i sets `/n` to i at `start + i/1000` s, labelled
/// `tick`, with every 1,000th labelled `tock`. For timing go-to and paging on a long, real session file, and for
/// opening a real session in the timeline.
///
/// Threading: immutable once built; build and read it from one test.
package struct BigSessionFile {
    /// The store holding the session.
    package let store: SessionStore
    /// The session.
    package let id: SessionID
    /// The session's start (seconds since 1970).
    package let start: Double
    /// The number of events.
    package let count: Int

    /// Records the session of app `appName` starting at `start` into `directory` (a new temporary one by default),
    /// finished clean; throws ``SessionBuildFailure`` when not every event was committed.
    package static func build(count: Int, appName: String = "big", start: Double,
                             directory: URL? = nil) throws -> BigSessionFile {
        let directory = directory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("rewind-big-\(UUID().uuidString)")
        let store = try SessionStore(directory: directory)
        let recording = try store.createSession(appName: appName, protocolVersion: 1, initialState: ["n": 0],
                                                startedAt: Date(timeIntervalSince1970: start))
        for index in 1...count {
            let value = JSONValue.int(Int64(index))
            recording.append(NewEvent(appSeq: Int64(index), time: start + Double(index) / 1000,
                                      label: index % 1000 == 0 ? "tock" : "tick", action: ["n": value],
                                      patch: JSONPatch([.replace(path: JSONPointer(tokens: ["n"]), value: value)])),
                             stateAfter: ["n": value])
            if index % 20_000 == 0 { recording.flush() }  // never let the buffer fill (it would coalesce)
        }
        recording.flush()
        guard recording.committedIndex == Int64(count) else {
            throw SessionBuildFailure(description: "committed \(recording.committedIndex) of \(count) events")
        }
        recording.finish(endState: .clean)
        return BigSessionFile(store: store, id: recording.id, start: start, count: count)
    }

    /// Removes the data directory.
    package func remove() {
        try? FileManager.default.removeItem(at: store.directory)
    }
}

/// The big session file could not be built as asked.
package struct SessionBuildFailure: Error, CustomStringConvertible {
    /// What went wrong.
    package let description: String
}
