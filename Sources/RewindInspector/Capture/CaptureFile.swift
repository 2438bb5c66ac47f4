import Foundation
import RewindWire
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One capture file being written (docs/SESSION-FORMAT.md, "Capture files"): its header, a `hello` with the state it
/// starts from, then app → daemon messages, one per line, and a `goodbye` when it is closed with nothing left open.
///
/// The file is created with mode 0600 (it holds the app's states) and never replaces an existing file. Each message is
/// one `write` of its line: a process that dies leaves every complete line readable (at worst the last one cut).
///
/// Threading: owned by one thread (the inspector's pipeline thread).
final class CaptureFile {
    /// The file's location.
    let url: URL
    /// Bytes written so far.
    private(set) var bytes = 0
    private var descriptor: Int32

    /// Creates the file at `url` (failing if it exists) and writes the header and the `hello`.
    init(url: URL, header: CaptureHeader, hello: Hello) throws(CaptureWriteError) {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CaptureWriteError(path: url.path, doing: "create", reason: String(cString: strerror(errno))) }
        self.url = url
        descriptor = fd
        try append(header.serializedBytes())
        try append(WireCodec.encode(AppMessage.hello(hello)))
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// Appends one message (its JSON, without a newline) as a line.
    func append(_ message: [UInt8]) throws(CaptureWriteError) {
        guard descriptor >= 0 else { return }
        var line = message
        line.append(0x0A)
        let result: Result<Void, CaptureWriteError> = line.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return .failure(CaptureWriteError(path: url.path, doing: "write",
                                                      reason: String(cString: strerror(errno))))
                }
                offset += written
            }
            return .success(())
        }
        try result.get()
        bytes += line.count
    }

    /// Ends the file: a `goodbye` after action `goodbyeSeq` when given (nothing was left open), then flushed to the
    /// disk and closed. Idempotent.
    func finish(goodbyeSeq: UInt64?) {
        guard descriptor >= 0 else { return }
        if let goodbyeSeq { try? append(WireCodec.encode(AppMessage.goodbye(Goodbye(seq: goodbyeSeq)))) }
        _ = fsync(descriptor)
        close(descriptor)
        descriptor = -1
    }
}

/// A capture file could not be created or written (a full disk, a read-only directory, permissions), or there was
/// nothing to write.
struct CaptureWriteError: Error, CustomStringConvertible {
    /// `captureNow` with no recent actions kept.
    static let noneKept = CaptureWriteError(
        path: "", doing: "capture the last actions",
        reason: "none are kept (captureRecentActions is 0: set REWIND_CAPTURE_RECENT=N to keep the last N)")

    /// The file or directory ("" when the failure is not about one).
    var path: String
    /// What was being done: "create", "write", "create the directory".
    var doing: String
    /// The system's words for what went wrong.
    var reason: String

    var description: String {
        path.isEmpty ? "cannot \(doing): \(reason)" : "cannot \(doing) \(path): \(reason)"
    }
}
