import Foundation

/// Appends timestamped lines to a file (the daemon's notices while the timeline owns the screen).
final class LogFile: Sendable {
    private let url: URL

    init(url: URL) { self.url = url }

    /// Appends one line; failures to write are ignored (logging must never stop the daemon).
    @Sendable func write(_ line: String) {
        let stamp = ISO8601DateFormatter().string(from: Date())
        let data = Data("\(stamp) \(line)\n".utf8)
        if let handle = try? FileHandle(forWritingTo: url) {
            handle.seekToEndOfFile()
            handle.write(data)
            try? handle.close()
        } else {
            try? data.write(to: url)
        }
    }
}
