import Foundation
import RewindSessionFile
import RewindWire

/// Reads one capture file (docs/SESSION-FORMAT.md, "Capture files") line by line without loading it whole: its
/// header (line 1, read when the reader is made), its `hello` (line 2, ``readHello()``), then the app's messages
/// (``nextMessage()``), each decoded by the wire protocol's own decoder exactly as the daemon decodes a frame.
///
/// Problems are ``SessionStoreError/malformedImport(path:line:reason:)`` errors naming the file and the line: a
/// header that is not one (``CaptureHeaderError``'s words), a line 2 that is not a `hello`, a later line that does
/// not decode (the ``WireError``). One exception: a last line the file ends in the middle of (no line end after it,
/// and not a message) is what a process that died while writing leaves; it ends the messages, and ``warning`` says
/// so.
///
/// Threading: confined to the thread that made it (it owns an ``ImportLineReader``).
package final class CaptureFileReader {
    /// The file.
    package let url: URL
    /// Its first line.
    package let header: CaptureHeader
    private let lines: ImportLineReader
    private let limits: JSONLimits
    /// The number of the incomplete last line, once met.
    private var incompleteLine: Int?

    /// Opens the capture file at `url` and reads its header. `maxMessageBytes` bounds each line (the daemon's
    /// largest message). Throws `unreadable`, or `malformedImport` (line 1) when the first line is not a capture
    /// header this build reads.
    package init(url: URL, maxMessageBytes: Int) throws(SessionStoreError) {
        self.url = url
        lines = try ImportLineReader(url: url, maxLineBytes: maxMessageBytes)
        limits = JSONLimits(maxDepth: 512, maxBytes: maxMessageBytes)
        guard let first = try lines.nextLine() else {
            throw .malformedImport(path: url.path, line: nil, reason: "the file is empty (a capture file starts with "
                                       + "its header line, {\"format\":\"\(CaptureHeader.formatName)\",…})")
        }
        do throws(CaptureHeaderError) {
            header = try CaptureHeader(parsing: Array(first))
        } catch {
            throw .malformedImport(path: url.path, line: 1, reason: "not a capture file's header: \(error)")
        }
    }

    /// Whether the first line of the file at `url` is a capture header (``CaptureHeader/isCaptureHeader(_:)``),
    /// whatever the file's name; false for a file that cannot be read.
    package static func isCaptureFile(_ url: URL) -> Bool {
        guard let lines = try? ImportLineReader(url: url), let first = try? lines.nextLine() else { return false }
        return CaptureHeader.isCaptureHeader(Array(first))
    }

    /// Reads line 2: the `hello` the capture starts from. Throws `malformedImport` when it is missing, incomplete,
    /// does not decode, is another message, or names another app run than the header.
    package func readHello() throws(SessionStoreError) -> Hello {
        let path = url.path
        guard let line = try lines.nextLine() else {
            throw .malformedImport(path: path, line: 2, reason: "the capture has no hello (line 2: the state it "
                                       + "starts from); the app stopped right after starting the file")
        }
        let message: AppMessage
        do throws(WireError) {
            message = try WireCodec.decodeAppMessage(Array(line), limits: limits)
        } catch {
            let incomplete = lines.lastLineEnded ? "" : " (the line is incomplete: the app stopped while writing it)"
            throw .malformedImport(path: path, line: 2, reason: "line 2 must be the capture's hello: \(error)"
                                       + incomplete)
        }
        guard case .hello(let hello) = message else {
            throw .malformedImport(path: path, line: 2, reason: "line 2 must be the capture's hello (the state it "
                                       + "starts from), not a '\(message.typeName)' message")
        }
        guard hello.app == header.app else {
            throw .malformedImport(path: path, line: 2, reason: "the hello's app (\(hello.app.name), "
                                       + "\(hello.app.instance)) is not the header's (\(header.app.name), "
                                       + "\(header.app.instance))")
        }
        return hello
    }

    /// The next message (after ``readHello()``), with its size in bytes and its line number; nil at the end of the
    /// file, or at an incomplete last line (``warning``). Blank lines are passed over. Throws `malformedImport` for
    /// a line that does not decode.
    package func nextMessage() throws(SessionStoreError) -> (message: AppMessage, bytes: Int, line: Int)? {
        while let line = try lines.nextLine() {
            if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }) {
                continue
            }
            do throws(WireError) {
                let message = try WireCodec.decodeAppMessage(Array(line), limits: limits)
                return (message, line.count, lines.lineNumber)
            } catch {
                if !lines.lastLineEnded {
                    incompleteLine = lines.lineNumber
                    return nil
                }
                throw .malformedImport(path: url.path, line: lines.lineNumber,
                                       reason: "not a message of the wire protocol: \(error)")
            }
        }
        return nil
    }

    /// Said once the reader met an incomplete last line: which, and how many complete lines it read before it.
    package var warning: String? {
        guard let incompleteLine else { return nil }
        return "the last line of \(url.path) is incomplete (the app stopped while writing it): read the "
            + "\(incompleteLine - 1) complete lines before it"
    }
}
