import Foundation

/// The real file system, through Foundation.
///
/// Threading: main actor (see ``FileSystem``); stateless.
struct LocalFileSystem: FileSystem {
    func contents(of path: String) throws -> Data? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    func write(_ data: Data, to path: String) throws {
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
