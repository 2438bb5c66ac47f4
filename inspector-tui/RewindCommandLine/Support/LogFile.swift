import Foundation
import RewindWire

/// Appends timestamped lines to a file (the daemon's notices while the timeline owns the screen).
///
/// Each line is escaped with `TerminalText` (an app's name cannot forge a line or send escape sequences to the
/// terminal that shows the log). The file is opened for each line with `O_NOFOLLOW`: a symbolic link planted at
/// its path is not followed (the line is dropped instead of being appended to the link's target), and the file is
/// readable by its owner only (created 0600; an existing one that others could read is changed to 0600).
final class LogFile: Sendable {
    private let url: URL

    init(url: URL) { self.url = url }

    /// Appends one line; failures to write are ignored (logging must never stop the daemon).
    @Sendable func write(_ line: String) {
        let stamp = ISO8601DateFormatter().string(from: Date())
        let bytes = Array("\(stamp) \(TerminalText.escaped(line))\n".utf8)
        let fd = open(url.path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var info = stat()
        // Only a regular file is written to (not a FIFO or a device someone put there).
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return }
        // A log left readable by others (by an older version) becomes owner-only.
        if info.st_mode & 0o077 != 0 { fchmod(fd, 0o600) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
