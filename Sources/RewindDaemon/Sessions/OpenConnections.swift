import Foundation
import RewindWebSocket

/// The app connections open at the server right now: a connection is added when the server reports it open and
/// removed the moment the server reports it closed, before its last messages have been handled. The registry
/// asks it whether a session's connection is still there (``SessionRegistry``).
///
/// Threading: any thread; guarded by a lock held only for the set operation.
final class OpenConnections: @unchecked Sendable {  // `open` guarded by `lock`
    private let lock = NSLock()
    private var open: Set<ConnectionID> = []

    /// Records that `id` is open.
    func insert(_ id: ConnectionID) {
        lock.withLock { _ = open.insert(id) }
    }

    /// Records that `id` has closed.
    func remove(_ id: ConnectionID) {
        lock.withLock { _ = open.remove(id) }
    }

    /// True while `id` is open.
    func contains(_ id: ConnectionID) -> Bool {
        lock.withLock { open.contains(id) }
    }
}
