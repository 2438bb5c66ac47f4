import Dispatch
import Foundation

/// Watches SIGINT, SIGTERM and SIGHUP while the timeline owns the terminal, so that they end the UI loop
/// (which then restores the terminal) instead of killing the process with the terminal left in raw mode.
///
/// Threading: the dispatch sources run on a private serial queue and only set a flag under `lock`; `received`
/// may be read from any thread. `cancel()` restores the previous dispositions; call it once, from the owner.
final class TerminationSignals: @unchecked Sendable {  // `flag` is guarded by `lock`; the rest is immutable.
    private static let watched: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    private let queue = DispatchQueue(label: "rewind.tui.signals")
    private let lock = NSLock()
    private var flag = false
    private var sources: [DispatchSourceSignal] = []
    private var previous: [Int32: sighandler_t?] = [:]

    init() {
        for number in Self.watched {
            previous[number] = signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [weak self] in
                self?.set()
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Whether one of the signals arrived.
    var received: Bool {
        lock.lock()
        defer { lock.unlock() }
        return flag
    }

    private func set() {
        lock.lock()
        flag = true
        lock.unlock()
    }

    /// Stops watching and restores the dispositions found at creation.
    func cancel() {
        for source in sources {
            source.cancel()
        }
        sources.removeAll()
        for (number, handler) in previous {
            signal(number, handler)
        }
        previous.removeAll()
    }
}
