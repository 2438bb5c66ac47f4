import Foundation

/// The tasks of a store's running effects, kept so that releasing the store can cancel them all.
///
/// Threading: `@unchecked Sendable`; every access to `tasks` holds `lock`. It is read from the store's `deinit`,
/// which may run on any thread, and written on the main actor.
@usableFromInline
final class EffectTaskRegistry: @unchecked Sendable {
    private let lock = NSLock()
    private var tasks: [UInt64: Task<Void, Never>] = [:]

    func insert(_ task: Task<Void, Never>, for token: UInt64) {
        lock.lock()
        tasks[token] = task
        lock.unlock()
    }

    func remove(_ token: UInt64) {
        lock.lock()
        tasks[token] = nil
        lock.unlock()
    }

    /// Cancels every registered task.
    @usableFromInline
    func cancelAll() {
        lock.lock()
        let running = Array(tasks.values)
        lock.unlock()
        for task in running {
            task.cancel()
        }
    }
}
