import Foundation
import RewindDaemon
import RewindSessionFile
import RewindWire

/// A session file of `count` small events recorded through the store's own API (`SessionStore.createSession` +
/// `SessionRecording.append`), in a fresh data directory: event i sets `/n` to i at `start + i/1000` s, labelled
/// `tick`, with every 1,000th labelled `tock`. For timing go-to and paging on a long, real session file.
struct BigSessionFile {
    let store: SessionStore
    let id: SessionID
    let start: Double
    let count: Int

    static func build(count: Int, start: Double = Fixtures.start) throws -> BigSessionFile {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-big-\(UUID().uuidString)")
        let store = try SessionStore(directory: directory)
        let recording = try store.createSession(appName: "big", protocolVersion: 1, initialState: ["n": 0],
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

    func remove() {
        try? FileManager.default.removeItem(at: store.directory)
    }
}

/// The big session file could not be built as asked.
struct SessionBuildFailure: Error, CustomStringConvertible {
    let description: String
}
