import Foundation
import RewindSessionFile

/// One serial queue per session file for the daemon's work on control commands that go to a session or read it —
/// `jump`, `dispatch`, a `replay` of recorded events, a branch flip, `recordedActions` — so that:
/// - commands of different sessions never wait for each other (a session whose file reads slowly, or whose flush
///   waits for a stalled disk, holds up only its own commands);
/// - commands of one session reach its app in the order they were given (two jumps in a row end in the second's
///   state);
/// - none of it runs on the WebSocket service thread or on a control connection's queue.
///
/// The work on a queue only reads the file and sends: waiting for the app's answer never occupies it (answers
/// arrive through ``LiveSession`` on any thread, bounded by the command timeout). A skip toggle is not run here but
/// in ``SkipToggleLanes``, so that a skip waiting for its app's recomputation holds up none of these.
///
/// Keyed by the session file's path; each ``Daemon`` has one set. A queue exists only while it has work, so the table
/// stays as small as the commands in flight.
///
/// Threading: any thread; the table is guarded by `lock`, held only for table work.
final class SessionCommandQueues: @unchecked Sendable {  // `queues` guarded by `lock`
    /// The process's queues.
    /// An empty set of queues.
    init() {}

    private let lock = NSLock()
    /// The queue of each session file with work, and how many blocks it has not finished yet.
    private var queues: [String: (queue: DispatchQueue, unfinished: Int)] = [:]

    /// Runs `work` on the serial queue of the session file at `path`, after the work given for it before.
    /// Any thread; returns at once.
    func async(forSessionFile path: String, _ work: @escaping @Sendable () -> Void) {
        let queue = lock.withLock { () -> DispatchQueue in
            var entry = queues[path]
                ?? (DispatchQueue(label: "rewind.daemon.commands.\((path as NSString).lastPathComponent)"), 0)
            entry.unfinished += 1
            queues[path] = entry
            return entry.queue
        }
        queue.async { [self] in
            work()
            lock.withLock {
                guard var entry = queues[path] else { return }
                entry.unfinished -= 1
                queues[path] = entry.unfinished == 0 ? nil : entry
            }
        }
    }
}
