import Foundation
import RewindDaemon
import RewindSessionFile
import RewindWire

/// A capture file named where a session is expected — `rewind open FILE`, `verify FILE -- APP`, `export FILE`,
/// `state FILE N`, `history`, `diff` — so that a capture a teammate sent opens like any session: the file is imported
/// into the data directory the first time (as `rewind import FILE` does, saying so on standard error), and found again
/// by later commands naming the same file (the session imported from a file of that name by the same app run).
///
/// Threading: stateless; reads and writes files on the calling thread.
enum CaptureFileArgument {
    /// True when `text` names an existing file whose first line is a capture header (docs/SESSION-FORMAT.md,
    /// "Capture files").
    static func isCaptureFile(_ text: String) -> Bool {
        header(of: text) != nil
    }

    /// The session `text` stands for when it names a capture file (imported now when no session of the data directory
    /// came from it); nil when it does not name one (it is then a session id).
    static func session(for text: String, in store: SessionStore) throws(CommandError) -> SessionID? {
        guard let header = header(of: text) else { return nil }
        let url = URL(fileURLWithPath: text)
        if let earlier = importedSession(named: url.lastPathComponent, instance: header.app.instance, in: store) {
            return earlier
        }
        let results: [CaptureImportResult]
        do {
            results = try CaptureImport(store: store).importFiles([url])
        } catch {
            throw CommandError("\(error)")
        }
        guard let result = results.first else { throw CommandError("\(text): no session was made of it") }
        for warning in result.warnings { CommandStreams.current.writeError("warning: \(warning)\n") }
        CommandStreams.current.writeError("imported \(url.lastPathComponent) (\(result.reason.rawValue) capture of "
                                          + "\(result.app.name)) as session \(result.id)\n")
        return result.id
    }

    /// The session of `store` imported from a file called `name` by the app run `instance`, if any.
    private static func importedSession(named name: String, instance: String, in store: SessionStore) -> SessionID? {
        guard let ids = try? store.sessionIDs() else { return nil }
        for id in ids.reversed() {
            guard let metadata = try? store.openSession(id).metadata else { continue }
            if metadata.importedFrom == name && metadata.instance == instance { return id }
        }
        return nil
    }

    /// The capture header of the file `text` names, nil when it names no such file.
    private static func header(of text: String) -> CaptureHeader? {
        var isDirectory: ObjCBool = false
        guard text.contains("/") || text.hasSuffix(".jsonl"),
              FileManager.default.fileExists(atPath: text, isDirectory: &isDirectory), !isDirectory.boolValue,
              let handle = FileHandle(forReadingAtPath: text) else { return nil }
        defer { try? handle.close() }
        guard let prefix = try? handle.read(upToCount: 64 << 10) else { return nil }
        let line = Array(prefix.prefix { $0 != 0x0A })
        return try? CaptureHeader(parsing: line)
    }
}
