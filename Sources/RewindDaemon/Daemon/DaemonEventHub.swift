import Foundation
import RewindSessionFile

/// Fans daemon events out to observers, and counts recorded events for the events-per-second figure.
///
/// Publishing costs one lock and a counter increment when nobody observes: the event value itself is built only
/// when there is an observer (the autoclosure).
///
/// Threading: any thread. Observers are called on the publishing thread (the server's service thread for
/// ingest) and must return quickly: hand work off, never block.
package final class DaemonEventHub: @unchecked Sendable {  // all state guarded by `lock`
    /// Identifies one observer, to remove it.
    package struct Token: Hashable, Sendable { let rawValue: UInt64 }

    private let lock = NSLock()
    private var observers: [UInt64: @Sendable (DaemonEvent) -> Void] = [:]
    private var nextToken: UInt64 = 1
    private var recordedCount: UInt64 = 0

    /// An empty hub.
    package init() {}

    /// Calls `observer` with every event from now on, until ``removeObserver(_:)``.
    @discardableResult
    package func addObserver(_ observer: @escaping @Sendable (DaemonEvent) -> Void) -> Token {
        lock.lock()
        defer { lock.unlock() }
        let token = nextToken
        nextToken += 1
        observers[token] = observer
        return Token(rawValue: token)
    }

    /// Stops calling the observer behind `token`.
    package func removeObserver(_ token: Token) {
        lock.lock()
        observers[token.rawValue] = nil
        lock.unlock()
    }

    /// How many observers are called: the timeline's, and one per `rewind tail` (tests wait on it to know a tail is
    /// subscribed).
    package var observerCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return observers.count
    }

    /// Every event recorded since the daemon started (all sessions).
    package var totalRecorded: UInt64 {
        lock.lock()
        defer { lock.unlock() }
        return recordedCount
    }

    /// Delivers `event` to every observer.
    func publish(_ event: @autoclosure () -> DaemonEvent, countsAsRecorded: Bool = false) {
        lock.lock()
        if countsAsRecorded { recordedCount &+= 1 }
        guard !observers.isEmpty else {
            lock.unlock()
            return
        }
        let current = Array(observers.values)
        lock.unlock()
        let value = event()
        for observer in current { observer(value) }
    }
}
