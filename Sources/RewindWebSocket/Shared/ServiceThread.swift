#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A joinable POSIX thread that runs one closure: the libwebsockets service loop.
///
/// Threading: `spawn` from any thread; `isCurrent`, `join` and `detach` from any thread, and `join` or
/// `detach` exactly once (the owner that retires the thread does it; from the thread itself, detach).
final class ServiceThread: Sendable {
    private let handle: LockedState<pthread_t?>

    private init() {
        handle = LockedState(nil)
    }

    /// Starts a thread running `body`; nil when the system refuses to create one.
    static func spawn(body: @escaping @Sendable () -> Void) -> ServiceThread? {
        let thread = ServiceThread()
        let start = ThreadStart(thread: thread, body: body)
        let argument = Unmanaged.passRetained(start).toOpaque()
        return thread.handle.withLock { handle -> ServiceThread? in
            // The lock is held until `handle` is set, so the new thread sees it in `isCurrent`.
            var created = pthread_t()
            let status = pthread_create(&created, nil, { raw in
                guard let raw else { return nil }
                let start = Unmanaged<ThreadStart>.fromOpaque(raw).takeRetainedValue()
                start.run()
                return nil
            }, argument)
            guard status == 0 else {
                Unmanaged<ThreadStart>.fromOpaque(argument).release()
                return nil
            }
            handle = created
            return thread
        }
    }

    /// Whether the calling thread is this thread.
    var isCurrent: Bool {
        handle.withLock { handle in
            guard let handle else { return false }
            return pthread_equal(handle, pthread_self()) != 0
        }
    }

    /// Waits for the thread to finish. Must not be called from the thread itself (use `detach`).
    func join() {
        guard let joined = handle.withLock({ handle -> pthread_t? in
            defer { handle = nil }
            return handle
        }) else { return }
        pthread_join(joined, nil)
    }

    /// Lets the thread's resources be reclaimed when it ends, without waiting for it.
    func detach() {
        guard let detached = handle.withLock({ handle -> pthread_t? in
            defer { handle = nil }
            return handle
        }) else { return }
        pthread_detach(detached)
    }
}

/// What a new thread needs at its start; handed over retained through pthread_create's argument.
private final class ThreadStart: Sendable {
    let thread: ServiceThread
    let body: @Sendable () -> Void

    init(thread: ServiceThread, body: @escaping @Sendable () -> Void) {
        self.thread = thread
        self.body = body
    }

    func run() {
        // Wait until `spawn` has recorded the handle, so `isCurrent` is right from the first callback.
        _ = thread.isCurrent
        body()
    }
}
