import Foundation
import RewindDaemon
import RewindSessionFile

/// A one-line progress display on standard error, shown only when standard error is a terminal (never in pipes
/// or logs), redrawn at most ten times a second.
final class ProgressLine {
    private let title: String
    private let streams = CommandStreams.current
    private var enabled: Bool { streams.errorIsTerminal }
    private var lastDraw = 0.0

    init(_ title: String) { self.title = title }

    func update(_ progress: TransferProgress) {
        guard enabled else { return }
        let now = Date().timeIntervalSince1970
        guard now - lastDraw >= 0.1 || progress.completed >= progress.total else { return }
        lastDraw = now
        let width = 30
        let filled = Int(progress.fraction * Double(width))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let count = progress.unit == .bytes
            ? "\(ByteCount.format(progress.completed)) / \(ByteCount.format(progress.total))"
            : "\(progress.completed) / \(progress.total) events"
        streams.writeError("\r\(title) \(bar) \(Int(progress.fraction * 100))%  \(count)\u{1B}[K")
    }

    func finish() {
        guard enabled else { return }
        streams.writeError("\r\u{1B}[K")
    }
}
