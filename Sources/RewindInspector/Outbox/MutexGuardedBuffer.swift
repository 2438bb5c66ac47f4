#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value and the pthread mutex that guards it, stored in one allocation (the value is the buffer's header and the
/// mutex its only element, so they sit on neighbouring cache lines).
///
/// Why not `Synchronization.Mutex`: on Linux its contended path takes the lock inside the kernel (a priority-
/// inheriting futex, in uncompiled-for-sanitizer library code), so ThreadSanitizer never sees the hand-over and
/// reports every contended access under it as a data race — in our tests and in any app that links the inspector
/// and runs under `--sanitize=thread`. A pthread mutex costs the same uncontended (one compare-and-exchange in
/// libc) and ThreadSanitizer intercepts it.
///
/// Why not `NSLock`: it is a separate object, and its calls go through Foundation's code; when the app dispatches
/// after a pause, on cold caches, each of those lines is a miss on the app's thread.
///
/// Threading: ``withLock(_:)`` from any thread; the value is only reachable inside it. Not reentrant.
@usableFromInline
final class MutexGuardedBuffer<Value>: ManagedBuffer<Value, pthread_mutex_t> {
    /// Creates a buffer holding `value`, with an initialised, unlocked mutex.
    @usableFromInline
    static func make(_ value: Value) -> MutexGuardedBuffer<Value> {
        let buffer = create(minimumCapacity: 1) { _ in value }
        buffer.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            let status = pthread_mutex_init(mutex, nil)
            precondition(status == 0, "pthread_mutex_init failed (\(status))")
        }
        return unsafeDowncast(buffer, to: MutexGuardedBuffer<Value>.self)
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try withUnsafeMutablePointers { value, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value.pointee)
        }
    }

    // The header (the value) is a stored property of `ManagedBuffer` and is destroyed with it; the mutex is ours.
    deinit {
        withUnsafeMutablePointerToElements { mutex in
            pthread_mutex_destroy(mutex)
            mutex.deinitialize(count: 1)
        }
    }
}
