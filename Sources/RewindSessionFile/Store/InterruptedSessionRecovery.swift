import Foundation

/// Who in this process is working on which session's lock in one data directory: the repair of the sessions a
/// recorder that is gone left `live` (``SessionStore/recoverInterruptedInBackground(completion:)``, which a daemon
/// starts once it listens) and every store call that takes a session's lock (``SessionStore/resumeSession(_:)``,
/// ``SessionStore/deleteSession(_:)``, ``SessionStore/recoverInterrupted()``).
///
/// The session lock (`flock`) tells processes apart, not the threads of one process: while the background repair
/// holds a session's lock, a reconnecting app's ``SessionStore/resumeSession(_:)`` would find it held and take the
/// session for one another process records. So every such call first claims the session here
/// (``withSessionClaimed(_:_:)``): it waits while the repair (or another claim) holds that one session, and takes a
/// session still waiting in the repair's queue out of it (the caller's own work supersedes the repair: a resume
/// marks the session live again anyway, a delete removes it). The repair claims each session the same way
/// (``claimNextQueued()``), so the two never work on one session at once, and nobody waits for more than that
/// one session's repair.
///
/// One instance per data directory and process (``forDirectory(_:)``), shared by every ``SessionStore`` opened on
/// it (a daemon restarted in the same process, the tests).
///
/// Threading: any thread; every member takes `condition`. ``withSessionClaimed(_:_:)`` blocks its caller while the
/// session is claimed elsewhere (at most one session's repair: a few file operations); never call it on a thread
/// that must not wait for a disk.
package final class InterruptedSessionRecovery: @unchecked Sendable {  // all mutable state guarded by `condition`
    private let condition = NSCondition()
    /// Sessions waiting for the background repair, in the order it takes them.
    private var queue: [SessionID] = []
    /// The members of `queue`, for the claims' look-ups.
    private var queued: Set<SessionID> = []
    /// Sessions whose lock some work of this process is taking or holding right now (the repair or a claim).
    private var claimed: Set<SessionID> = []
    /// How many callers wait for each claimed session (for tests that must know a caller is waiting).
    private var waiters: [SessionID: Int] = [:]
    /// Called on the repair's thread with each session it is about to repair, the session claimed: tests hold a
    /// repair there, as a slow disk would.
    private var repairHook: (@Sendable (SessionID) -> Void)?

    /// The shared coordinators, by the standardized path of their data directory.
    private static let shared = SharedCoordinators()

    /// The coordinator of the data directory at `path` (standardized) in this process. Any thread.
    package static func forDirectory(_ path: String) -> InterruptedSessionRecovery {
        shared.coordinator(for: path)
    }

    // MARK: - Claims of store calls

    /// Runs `body` with session `id` claimed: first waits while the repair (or another claim) holds it, and takes it
    /// out of the repair's queue when it waits there. Blocks the calling thread for as long as that takes.
    package func withSessionClaimed<Value, Failure: Error>(_ id: SessionID,
                                                   _ body: () throws(Failure) -> Value) throws(Failure) -> Value {
        condition.lock()
        if claimed.contains(id) {
            waiters[id, default: 0] += 1
            while claimed.contains(id) { condition.wait() }
            waiters[id, default: 1] -= 1
            if waiters[id] == 0 { waiters[id] = nil }
        }
        if queued.remove(id) != nil { queue.removeAll { $0 == id } }
        claimed.insert(id)
        condition.unlock()
        defer { release(id) }
        return try body()
    }

    /// True while some caller of ``withSessionClaimed(_:_:)`` waits for session `id` (tests). Any thread.
    package func isAwaited(_ id: SessionID) -> Bool {
        condition.withLock { waiters[id, default: 0] > 0 }
    }

    // MARK: - The background repair

    /// Queues `ids` for the repair, after those already queued (each session once). Any thread (the repair's).
    package func enqueue(_ ids: [SessionID]) {
        condition.withLock {
            for id in ids where !queued.contains(id) {
                queued.insert(id)
                queue.append(id)
            }
        }
    }

    /// Takes the next queued session that nobody holds and claims it for the repair (the caller then calls
    /// ``release(_:)``); nil when none is left. A queued session that a claim holds right now is dropped: that
    /// claim is working on it. Any thread (the repair's); never waits.
    package func claimNextQueued() -> SessionID? {
        condition.lock()
        defer { condition.unlock() }
        while !queue.isEmpty {
            let id = queue.removeFirst()
            queued.remove(id)
            guard !claimed.contains(id) else { continue }
            claimed.insert(id)
            return id
        }
        return nil
    }

    /// Gives up the claim of session `id` and wakes whoever waits for it. Any thread.
    package func release(_ id: SessionID) {
        condition.withLock {
            claimed.remove(id)
            condition.broadcast()
        }
    }

    /// True while session `id` waits in the repair's queue. Any thread.
    package func isQueued(_ id: SessionID) -> Bool {
        condition.withLock { queued.contains(id) }
    }

    /// Sets the hook called on the repair's thread with each session about to be repaired (nil: none). Any thread.
    package func setRepairHook(_ hook: (@Sendable (SessionID) -> Void)?) {
        condition.withLock { repairHook = hook }
    }

    /// The hook, if any. Any thread; the repair calls it outside the lock.
    package var currentRepairHook: (@Sendable (SessionID) -> Void)? {
        condition.withLock { repairHook }
    }
}

/// The process's ``InterruptedSessionRecovery`` coordinators by data directory.
/// Threading: any thread; guarded by `lock`. Entries are never removed (one small object per directory used).
private final class SharedCoordinators: @unchecked Sendable {  // `byDirectory` guarded by `lock`
    private let lock = NSLock()
    private var byDirectory: [String: InterruptedSessionRecovery] = [:]

    /// The coordinator of the directory at `path`, created on first use. Any thread.
    package func coordinator(for path: String) -> InterruptedSessionRecovery {
        lock.withLock {
            if let existing = byDirectory[path] { return existing }
            let created = InterruptedSessionRecovery()
            byDirectory[path] = created
            return created
        }
    }
}
