import Foundation

/// A value guarded by a lock. Used instead of `Synchronization.Mutex` because its lock is a pthread mutex
/// (NSLock), which ThreadSanitizer understands, so `swift test --sanitize=thread` checks the transports.
///
/// Threading: `withLock` from any thread; the value is only reachable inside it.
final class LockedState<Value>: @unchecked Sendable {
    // @unchecked: `value` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value. Do not call back into the same lock from `body`.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
