import Foundation
@testable import todo

/// A file system in memory for the todo sample's tests, which can be told to fail.
@MainActor
final class MemoryFileSystem: FileSystem {
    struct Failure: Error, LocalizedError {
        let errorDescription: String?
    }

    var files: [String: Data] = [:]
    var failure: String?

    func contents(of path: String) throws -> Data? {
        if let failure { throw Failure(errorDescription: failure) }
        return files[path]
    }

    func write(_ data: Data, to path: String) throws {
        if let failure { throw Failure(errorDescription: failure) }
        files[path] = data
    }
}
