import Foundation
import RewindSessionFile
import RewindWebSocket

/// The app connections open at the server right now: a connection is added when the server reports it open and
/// removed the moment the server reports it closed, before its last messages have been handled. The registry
/// asks it whether a session's connection is still there (``SessionRegistry``).
///
/// Threading: any thread; guarded by a lock held only for the set operation.
final class OpenConnections: @unchecked Sendable {  // `open` guarded by `condition`
    private let condition = NSCondition()
    private var open: Set<ConnectionID> = []

    /// Records that `id` is open.
    func insert(_ id: ConnectionID) {
        condition.withLock { _ = open.insert(id) }
    }

    /// Records that `id` has closed.
    func remove(_ id: ConnectionID) {
        condition.withLock {
            _ = open.remove(id)
            condition.broadcast()
        }
    }

    /// True while `id` is open.
    func contains(_ id: ConnectionID) -> Bool {
        condition.withLock { open.contains(id) }
    }

    /// Waits up to `timeout` seconds until `id` is no longer open; true when it is not. Never on the service thread
    /// (which reports the close).
    func waitUntilClosed(_ id: ConnectionID, timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while open.contains(id) {
            if !condition.wait(until: deadline) { break }
        }
        return !open.contains(id)
    }
}
