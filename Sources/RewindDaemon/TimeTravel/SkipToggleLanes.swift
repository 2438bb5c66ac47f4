import Foundation
import RewindSessionFile

/// Skip toggles of one session run one at a time: each rebuilds the session's set of skipped events from the file
/// and records its own toggle there, so the next one must start only once the previous one has recorded it (or
/// given up). A toggle's turn lasts from its first file read to its answer — through the app's recomputation, which
/// the toggle waits for without occupying a thread (the app's answers arrive on the app's connection).
///
/// Toggles of different sessions never wait for each other, and nothing but skips waits here: the other commands of
/// the session go through ``SessionCommandQueues``.
///
/// Keyed by the session file's path; each ``Daemon`` has one set (a session file is recorded by one daemon at a
/// time). A lane exists only while a toggle holds or waits for it.
///
/// Threading: any thread; the table is guarded by `lock`. Each turn starts on Dispatch's global queue.
final class SkipToggleLanes: @unchecked Sendable {  // `waiting` guarded by `lock`
    /// One toggle's turn: it calls `finished` exactly once, from any thread, when the toggle has ended (answered
    /// and recorded, or given up); the next toggle of the session starts then.
    typealias Turn = @Sendable (_ finished: @escaping @Sendable () -> Void) -> Void

    /// The process's lanes.
    /// An empty set of lanes.
    init() {}

    private let lock = NSLock()
    /// For each session file whose lane is taken, the turns waiting after the running one, in order.
    private var waiting: [String: [Turn]] = [:]

    /// Runs `turn` once every toggle of the session file at `path` given before has finished. Any thread; returns
    /// at once.
    func enqueue(forSessionFile path: String, _ turn: @escaping Turn) {
        let startsNow = lock.withLock { () -> Bool in
            if waiting[path] != nil {
                waiting[path, default: []].append(turn)
                return false
            }
            waiting[path] = []
            return true
        }
        if startsNow { start(turn, forSessionFile: path) }
    }

    /// Starts `turn` on a global queue; its end starts the next one.
    private func start(_ turn: @escaping Turn, forSessionFile path: String) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            turn { [self] in next(afterTurnOf: path) }
        }
    }

    /// The running turn of `path` has finished: starts the next waiting one, or frees the lane.
    private func next(afterTurnOf path: String) {
        let following = lock.withLock { () -> Turn? in
            guard var turns = waiting[path], !turns.isEmpty else {
                waiting[path] = nil
                return nil
            }
            let first = turns.removeFirst()
            waiting[path] = turns
            return first
        }
        if let following { start(following, forSessionFile: path) }
    }
}
