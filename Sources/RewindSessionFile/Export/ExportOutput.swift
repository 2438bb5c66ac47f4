import Foundation

/// Buffered output of an export: to a file descriptor the caller owns (standard output), or to a file that is
/// written under a temporary name and moved into place only once complete.
/// Threading: confined to the exporting thread.
package final class ExportOutput {
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    /// What the output is called in errors.
    package let name: String
    private let finalPath: String?
    private var buffer: [UInt8] = []
    private var finished = false
    private static let bufferSize = 1 << 18

    /// Output to an open descriptor, not closed at the end.
    package init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        ownsDescriptor = false
        self.name = name
        finalPath = nil
        buffer.reserveCapacity(ExportOutput.bufferSize)
    }

    /// Output to `url`, through `<file>.partial` renamed at `finish()`.
    package init(url: URL) throws(SessionStoreError) {
        let path = url.path
        let temporary = path + ".partial"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let code = errno
            throw code == ENOSPC ? .diskFull(path: path) : .unwritable(path: path, reason: String(cString: strerror(code)))
        }
        descriptor = fd
        ownsDescriptor = true
        name = path
        finalPath = path
        buffer.reserveCapacity(ExportOutput.bufferSize)
    }

    deinit {
        if ownsDescriptor, !finished {
            close(descriptor)
            if let finalPath { unlink(finalPath + ".partial") }
        }
    }

    /// Appends bytes.
    package func write(_ bytes: [UInt8]) throws(SessionStoreError) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= ExportOutput.bufferSize { try drain() }
    }

    /// Appends the UTF-8 of `text`.
    package func write(_ text: String) throws(SessionStoreError) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= ExportOutput.bufferSize { try drain() }
    }

    /// Writes out what is buffered; for a file, closes it and moves it into place.
    package func finish() throws(SessionStoreError) {
        try drain()
        finished = true
        guard ownsDescriptor, let finalPath else { return }
        if close(descriptor) != 0 {
            let code = errno
            unlink(finalPath + ".partial")
            throw .unwritable(path: finalPath, reason: String(cString: strerror(code)))
        }
        if rename(finalPath + ".partial", finalPath) != 0 {
            let code = errno
            unlink(finalPath + ".partial")
            throw .unwritable(path: finalPath, reason: String(cString: strerror(code)))
        }
    }

    private func drain() throws(SessionStoreError) {
        var offset = 0
        let failure: Int32? = buffer.withUnsafeBytes { raw in
            while offset < raw.count {
                let written = Foundation.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        buffer.removeAll(keepingCapacity: true)
        if let failure {
            throw failure == ENOSPC ? .diskFull(path: name) : .unwritable(path: name, reason: String(cString: strerror(failure)))
        }
    }
}
