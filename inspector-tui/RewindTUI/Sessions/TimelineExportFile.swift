import Foundation
import RewindSessionFile

/// Where the timeline's `e` writes a session's export, and the writing: the data directory's `exports` folder
/// (beside the recordings, not whatever directory `rewind` was started in — under `make demo`, a git clone),
/// under the session's id, never over an earlier file: `ID.jsonl`, then `ID-2.jsonl`, `ID-3.jsonl`…
///
/// Threading: stateless; `write` blocks the calling thread (the timeline's command thread) while it writes.
package enum TimelineExportFile {
    /// The folder exports of `store`'s sessions go to: `<data directory>/exports`.
    package static func directory(of store: SessionStore) -> URL {
        store.directory.appendingPathComponent("exports", isDirectory: true)
    }

    /// The first of `ID.jsonl`, `ID-2.jsonl`, … that does not exist in `directory`.
    package static func freshFile(for id: SessionID, in directory: URL) -> URL {
        var file = directory.appendingPathComponent("\(id.rawValue).jsonl")
        var number = 2
        while FileManager.default.fileExists(atPath: file.path) {
            file = directory.appendingPathComponent("\(id.rawValue)-\(number).jsonl")
            number += 1
        }
        return file
    }

    /// Exports session `id` of `store` as JSON Lines into a fresh file of `directory` (created if missing);
    /// returns the sentence for the status line, which names the file.
    package static func write(_ id: SessionID, of store: SessionStore, into directory: URL) throws -> String {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw SessionStoreError.unwritable(path: directory.path, reason: "\(error.localizedDescription)")
        }
        let file = freshFile(for: id, in: directory)
        try SessionExporter(reader: try store.openSession(id)).export(format: .jsonl, to: file)
        return "exported to \(file.path)"
    }
}
