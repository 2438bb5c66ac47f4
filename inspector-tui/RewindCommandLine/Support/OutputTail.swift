import Foundation
import RewindWire

/// The last bytes a child process wrote to a pipe (its standard error), read on a thread of its own so that the
/// child never blocks on a full pipe; at most ``limit`` bytes are kept.
///
/// Threading: `text` may be called from any thread (guarded by `lock`); the reading thread ends at end of file.
final class OutputTail: @unchecked Sendable {  // mutable state guarded by `lock`
    /// The most bytes kept (the end of the output).
    let limit: Int
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    private var finished = false
    private let pipe = Pipe()

    /// A tail keeping the last `limit` bytes written to ``fileHandleForWriting``.
    init(limit: Int = 16 << 10) {
        self.limit = limit
        let reading = pipe.fileHandleForReading
        let thread = Thread { [self] in
            while true {
                let chunk = reading.availableData
                if chunk.isEmpty { break }
                lock.withLock {
                    bytes.append(contentsOf: chunk)
                    if bytes.count > limit { bytes.removeFirst(bytes.count - limit) }
                }
            }
            lock.withLock { finished = true }
        }
        thread.name = "rewind-output-tail"
        thread.start()
    }

    /// The end to give the child process (as its standard error).
    var fileHandleForWriting: FileHandle { pipe.fileHandleForWriting }

    /// Closes this process's copy of the writing end (after the child started), so that the reader sees the end of
    /// file when the child exits.
    func closeWritingEnd() {
        try? pipe.fileHandleForWriting.close()
    }

    /// The last lines written (up to `maxLines`), escaped for a terminal, after waiting up to `wait` seconds for the
    /// output to end (a child that just exited may still have bytes in the pipe).
    func lastLines(_ maxLines: Int = 20, wait: Double = 0.5) -> [String] {
        let deadline = Date(timeIntervalSinceNow: wait)
        while !lock.withLock({ finished }) && Date() < deadline { usleep(10_000) }
        let text = String(decoding: lock.withLock { bytes }, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let trimmed = lines.last == "" ? Array(lines.dropLast()) : lines
        return trimmed.suffix(maxLines).map { TerminalText.escaped($0) }
    }
}
