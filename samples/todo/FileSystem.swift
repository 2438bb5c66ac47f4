import Foundation

/// The part of the file system the todo app uses: whole small files. Injected at launch (``LocalFileSystem``);
/// tests inject one in memory.
///
/// Threading: main actor, where the interpreter's handlers run. The list file is small; a large one would be read
/// by a nonisolated async function instead.
@MainActor
protocol FileSystem {
    /// The contents of the file at `path`, or nil when there is no such file.
    func contents(of path: String) throws -> Data?
    /// Replaces the file at `path` with `data`, all at once (readers see the old or the new file, never a part).
    func write(_ data: Data, to path: String) throws
}
