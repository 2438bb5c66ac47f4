import Foundation

/// The seed inputs in `Tests/FuzzTests/Corpus/` (valid JSON documents, protocol frames of every kind, patches
/// with the document they apply to, and inputs earlier long passes found), read by path from this source file.
///
/// Threading: a value type; safe to share.
struct FuzzCorpus: Sendable {
    /// The folder holding the corpus.
    static let folder: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Corpus", isDirectory: true)

    /// Each seed's file name and bytes, sorted by name so that a seeded pass is the same everywhere.
    let entries: [(name: String, bytes: [UInt8])]

    /// Reads every regular file in ``folder``.
    init() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).sorted()
        var entries: [(String, [UInt8])] = []
        for name in names where !name.hasPrefix(".") {
            let data = try Data(contentsOf: Self.folder.appendingPathComponent(name))
            entries.append((name, [UInt8](data)))
        }
        self.entries = entries
    }

    /// Saves `bytes` into the corpus as `<prefix>-<hash>.bin` and returns the file name (a finding of a long
    /// pass, so that every later pass, short ones included, runs it again).
    @discardableResult
    static func save(_ bytes: [UInt8], prefix: String) throws -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325  // FNV-1a: a stable name for the same input
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
        }
        let name = "\(prefix)-\(String(hash, radix: 16)).bin"
        try Data(bytes).write(to: folder.appendingPathComponent(name))
        return name
    }
}
