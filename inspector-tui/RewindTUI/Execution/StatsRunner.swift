import Foundation
import RewindSessionFile

/// Computes the stats view's table (`TimelineDataSource.labelStatistics`) on a thread of its own, so that a
/// million-event session never freezes the screen. One computation at a time: starting another cancels the running
/// one.
///
/// Threading: every method may be called from any thread (the UI thread, in practice); the work runs on the
/// runner's serial queue. State is guarded by `condition`.
final class StatsRunner: @unchecked Sendable {  // mutable state guarded by `condition`; the source is Sendable
    /// A finished (or failed, or cancelled) computation.
    struct Outcome: Sendable {
        /// The session it was for.
        let session: String
        /// Each label's statistics, most frequent first; nil when it failed or was cancelled.
        let statistics: [LabelStatistics]?
        /// Why it failed, if it did.
        let failure: String?
    }

    private let dataSource: any TimelineDataSource
    private let queue = DispatchQueue(label: "rewind.timeline.stats")
    private let condition = NSCondition()
    private var current: TimelineSearchProgress?
    private var outcome: Outcome?
    private var unfinished = 0

    /// A runner reading `dataSource`.
    init(dataSource: any TimelineDataSource) {
        self.dataSource = dataSource
    }

    /// Computes the statistics of `session`'s first `count` events (a running computation is cancelled).
    func start(session: String, count: Int) {
        let progress = TimelineSearchProgress()
        condition.lock()
        current?.cancel()
        current = progress
        unfinished += 1
        condition.unlock()
        queue.async { [self] in
            let result: Outcome?
            do {
                let statistics = try dataSource.labelStatistics(session: session, count: count, progress: progress)
                result = Outcome(session: session, statistics: statistics, failure: nil)
            } catch is TimelineSearchProgress.Cancelled {
                result = nil
            } catch {
                result = Outcome(session: session, statistics: nil, failure: "\(error)")
            }
            condition.lock()
            if current === progress {
                current = nil
                if let result { outcome = result }
            }
            unfinished -= 1
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Cancels the running computation, if any.
    func cancel() {
        condition.lock()
        current?.cancel()
        current = nil
        condition.unlock()
    }

    /// The computation finished since the last call, if any.
    func takeOutcome() -> Outcome? {
        condition.lock()
        defer { condition.unlock() }
        let taken = outcome
        outcome = nil
        return taken
    }

    /// Waits until nothing is being computed (at most `timeout` seconds); true when nothing is.
    func waitUntilIdle(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while unfinished > 0 {
            if !condition.wait(until: deadline) { return unfinished == 0 }
        }
        return true
    }
}
