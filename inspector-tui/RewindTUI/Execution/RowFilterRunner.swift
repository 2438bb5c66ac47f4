import Foundation

/// Computes the visible rows of a row filter (`TimelineRowFilter`) on a thread of its own, one stretch at a time —
/// the whole session when the filter is set, then each stretch a live session recorded since — so that filtering a
/// million events never freezes the screen. Starting a stretch of another filter cancels the running one.
///
/// Threading: every method may be called from any thread (the UI thread, in practice); the work runs on the
/// runner's serial queue. State is guarded by `condition`.
final class RowFilterRunner: @unchecked Sendable {  // mutable state guarded by `condition`; the source is Sendable
    /// A computed (or cancelled, or failed) stretch.
    struct Outcome: Sendable {
        /// The filter the rows are for (its own rows not used).
        let filter: TimelineRowFilter
        /// The event indices looked at.
        let range: ClosedRange<Int>
        /// The visible ones, in order; nil when cancelled or failed.
        let rows: [Int]?
        /// Why it failed, if it did.
        let failure: String?
    }

    private let dataSource: any TimelineDataSource
    private let queue = DispatchQueue(label: "rewind.timeline.rows")
    private let condition = NSCondition()
    private var current: (filter: TimelineRowFilter, progress: TimelineSearchProgress)?
    private var outcomes: [Outcome] = []
    private var unfinished = 0

    /// A runner reading `dataSource`.
    init(dataSource: any TimelineDataSource) {
        self.dataSource = dataSource
    }

    /// Computes the rows `filter` shows in `range`, after the stretches already started for the same filter
    /// (a stretch of another filter is cancelled).
    func start(_ filter: TimelineRowFilter, range: ClosedRange<Int>) {
        let progress = TimelineSearchProgress()
        condition.lock()
        if let running = current, !Self.same(running.filter, filter) { running.progress.cancel() }
        current = (filter, progress)
        unfinished += 1
        condition.unlock()
        queue.async { [self] in
            var outcome: Outcome
            do {
                let rows = try dataSource.visibleEvents(session: filter.session, filter: filter, in: range,
                                                        progress: progress)
                outcome = Outcome(filter: filter, range: range, rows: rows, failure: nil)
            } catch is TimelineSearchProgress.Cancelled {
                outcome = Outcome(filter: filter, range: range, rows: nil, failure: nil)
            } catch {
                outcome = Outcome(filter: filter, range: range, rows: nil, failure: "\(error)")
            }
            condition.lock()
            if current?.progress === progress { current = nil }
            outcomes.append(outcome)
            unfinished -= 1
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Cancels the running stretch, if any.
    func cancel() {
        condition.lock()
        current?.progress.cancel()
        condition.unlock()
    }

    /// How far the running stretch got, or nil when none runs.
    var running: (searched: Int, total: Int)? {
        condition.lock()
        defer { condition.unlock() }
        guard let current else { return nil }
        let fraction = current.progress.fraction
        return (fraction.searched, fraction.total)
    }

    /// The stretches finished since the last call, in order.
    func takeOutcomes() -> [Outcome] {
        condition.lock()
        defer { condition.unlock() }
        let taken = outcomes
        outcomes = []
        return taken
    }

    /// Waits until no stretch is being computed (at most `timeout` seconds); true when none is.
    func waitUntilIdle(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while unfinished > 0 {
            if !condition.wait(until: deadline) { return unfinished == 0 }
        }
        return true
    }

    /// Whether two filters hide the same rows of the same session.
    static func same(_ a: TimelineRowFilter, _ b: TimelineRowFilter) -> Bool {
        a.session == b.session && a.labels == b.labels && a.hiddenKinds == b.hiddenKinds
    }
}
