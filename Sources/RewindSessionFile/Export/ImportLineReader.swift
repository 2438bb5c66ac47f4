import Foundation

/// Reads a file line by line in large chunks, counting lines (1-based) and bytes, without loading it whole.
/// Lines end at `\n`; a `\r` before it is dropped. A line (or the remainder of a multi-line document) longer
/// than `maxLineBytes` fails with `malformedImport` as soon as that many bytes were read without a line end, so
/// memory stays bounded whatever the input (`/dev/zero`, a pipe that never sends a newline). Only regular files
/// and pipes are read: a device, a socket or a directory is refused before reading.
/// Threading: confined to the importing thread.
package final class ImportLineReader {
    /// The longest line (and the longest multi-line document) read by default: 256 MiB.
    package static let defaultMaxLineBytes = 256 << 20
    /// The longest line accepted, in bytes.
    package let maxLineBytes: Int
    private let descriptor: Int32
    /// The file's path, for errors.
    package let path: String
    /// The file's size in bytes.
    package let size: Int64
    /// The number of the line last returned.
    package private(set) var lineNumber = 0
    /// Bytes consumed so far (up to the end of the line last returned).
    package private(set) var bytesRead: Int64 = 0
    /// Whether the line last returned ended with a line end (`\n`): false only for a last line the file ends in
    /// the middle of (its writer stopped before finishing it, or never writes a final line end).
    package private(set) var lastLineEnded = true
    private var buffer: [UInt8] = []
    private var start = 0
    /// Where the search for the next line ending resumes (everything from `start` to here has none).
    private var searched = 0
    private var atEnd = false
    /// The read buffer, allocated once.
    private var chunk = [UInt8](repeating: 0, count: 1 << 20)

    package init(url: URL, maxLineBytes: Int = ImportLineReader.defaultMaxLineBytes) throws(SessionStoreError) {
        path = url.path
        self.maxLineBytes = max(1, maxLineBytes)
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw .unreadable(path: path, reason: String(cString: strerror(code)))
        }
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG || type == S_IFIFO else {
            close(fd)
            let kind = type == S_IFDIR ? "a directory" : type == S_IFCHR || type == S_IFBLK ? "a device" : "not a file"
            throw .unreadable(path: path, reason: "it is \(kind), not a regular file or a pipe")
        }
        descriptor = fd
        size = Int64(info.st_size)
    }

    deinit {
        close(descriptor)
    }

    /// The next line's bytes (without its line ending), or nil at the end of the file.
    package func nextLine() throws(SessionStoreError) -> ArraySlice<UInt8>? {
        while true {
            if let newline = nextNewline(from: max(start, searched)) {
                var end = newline
                if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let line = buffer[start..<end]
                bytesRead += Int64(newline + 1 - start)
                start = newline + 1
                searched = start
                lineNumber += 1
                lastLineEnded = true
                return line
            }
            searched = buffer.count
            if buffer.count - start > maxLineBytes { throw tooLong() }
            if atEnd {
                guard start < buffer.count else { return nil }
                let line = buffer[start...]
                bytesRead += Int64(buffer.count - start)
                start = buffer.count
                lineNumber += 1
                lastLineEnded = false
                return line
            }
            try fill()
        }
    }

    /// Everything from the current position to the end of the file.
    package func remainder() throws(SessionStoreError) -> [UInt8] {
        while !atEnd {
            if buffer.count - start > maxLineBytes { throw tooLong() }
            try fill()
        }
        if buffer.count - start > maxLineBytes { throw tooLong() }
        let rest = Array(buffer[start...])
        bytesRead += Int64(rest.count)
        start = buffer.count
        return rest
    }

    private func tooLong() -> SessionStoreError {
        .malformedImport(path: path, line: lineNumber + 1,
                         reason: "the line is longer than \(maxLineBytes) bytes (the import limit) without a line end")
    }

    /// The position of the first `\n` at or after `position`, found with `memchr`.
    private func nextNewline(from position: Int) -> Int? {
        guard position < buffer.count else { return nil }
        return buffer.withUnsafeBytes { raw -> Int? in
            guard let base = raw.baseAddress,
                  let found = memchr(base + position, Int32(UInt8(ascii: "\n")), raw.count - position) else { return nil }
            return base.distance(to: UnsafeRawPointer(found))
        }
    }

    private func fill() throws(SessionStoreError) {
        if start > 0 {
            buffer.removeSubrange(0..<start)
            searched -= start
            start = 0
        }
        var count = 0
        while true {
            count = chunk.withUnsafeMutableBytes { raw in read(descriptor, raw.baseAddress!, raw.count) }
            if count < 0, errno == EINTR { continue }
            break
        }
        guard count >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        chunk.withUnsafeBufferPointer { read in
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: read[0..<count]))
        }
        if count == 0 { atEnd = true }
    }
}
