import Foundation
import Testing
import RewindDaemon
import RewindSessionFile
import RewindTUI
import RewindWire

/// Issue 31: `e` wrote `./ID.jsonl` in whatever directory `rewind` ran in (under `make demo`, the git clone) and
/// silently replaced an earlier export there. It now writes into the data directory's `exports` folder and never
/// over an existing file.
@Suite("The timeline's export (e): beside the recordings, never over an earlier file")
struct TimelineExportFileTests {
    private func savedSession() throws -> (SessionStore, SessionID, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-tef-\(UUID())")
        let store = try SessionStore(directory: directory)
        let recording = try store.createSession(appName: "counter", protocolVersion: 1, initialState: ["count": 0])
        recording.append(NewEvent(appSeq: 1, time: Date().timeIntervalSince1970, label: "increment",
                                  action: ["increment": [:]],
                                  patch: JSONPatch([.replace(path: JSONPointer(tokens: ["count"]), value: 1)])),
                         stateAfter: ["count": 1])
        recording.finish(endState: .clean)
        return (store, recording.id, directory)
    }

    @Test("e writes DATA/exports/ID.jsonl, then ID-2.jsonl; an existing file is left as it was")
    func exportsNeverOverwrite() throws {
        let (store, id, directory) = try savedSession()
        defer { try? FileManager.default.removeItem(at: directory) }
        let actions = SavedSessionActions(store: store, onQuit: {})
        let exports = directory.appendingPathComponent("exports")
        let first = try actions.export(session: id.rawValue)
        #expect(first == "exported to \(exports.appendingPathComponent("\(id.rawValue).jsonl").path)")
        let firstBytes = try Data(contentsOf: exports.appendingPathComponent("\(id.rawValue).jsonl"))
        try Data("mine".utf8).write(to: exports.appendingPathComponent("\(id.rawValue)-2.jsonl"))
        let second = try actions.export(session: id.rawValue)
        #expect(second == "exported to \(exports.appendingPathComponent("\(id.rawValue)-3.jsonl").path)")
        #expect(try Data(contentsOf: exports.appendingPathComponent("\(id.rawValue).jsonl")) == firstBytes)
        #expect(try String(contentsOf: exports.appendingPathComponent("\(id.rawValue)-2.jsonl"), encoding: .utf8) == "mine")
        #expect(try Data(contentsOf: exports.appendingPathComponent("\(id.rawValue)-3.jsonl")) == firstBytes)
        #expect(!FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/\(id.rawValue).jsonl"),
                "nothing is written in the current directory")
        #expect(try store.sessionIDs() == [id], "the exports folder is not taken for a session")
    }
}
