import Foundation

/// What every computation the timeline runs off its UI thread shares (searches, row filters, the stats table, the
/// session map, the charts): a serial queue of its own, one current computation with its progress (so that it can be
/// cancelled and its progress shown), the outcomes waiting for the UI thread, and a wait for tests and shutdown.
///
/// Each computation is started with a `Tag` saying what it computes (a request, a filter, a session) and returns its
/// outcome, or nil when it has nothing to report (it was cancelled). Which outcomes are kept is the ``Keeping`` given
/// at creation.
///
/// Threading: every method may be called from any thread (the UI thread, in practice); the work runs on the
/// queue. State is guarded by `condition`; `Tag` and `Outcome` values cross threads, hence `Sendable`.
final class BackgroundWork<Tag: Sendable, Outcome: Sendable>: @unchecked Sendable {  // guarded by `condition`
    /// Which finished computations' outcomes wait for ``takeOutcomes()``.
    enum Keeping {
        /// Every one, in the order they finished (stretches of a row filter, maps of a growing session).
        case every
        /// Only the one still current when it finished: a newer start drops an older computation's outcome, and
        /// the outcome not yet taken (a search, the stats table).
        case latest
    }

    private let queue: DispatchQueue
    private let keeping: Keeping
    private let condition = NSCondition()
    private var current: (tag: Tag, progress: TimelineSearchProgress)?
    private var outcomes: [Outcome] = []
    private var unfinished = 0

    /// Work on a serial queue named `label`, keeping outcomes as `keeping` says.
    init(label: String, keeping: Keeping) {
        queue = DispatchQueue(label: label)
        self.keeping = keeping
    }

    /// Starts `work` on the queue with a new progress (set up by `prepare` before it runs). The running computation,
    /// if any, is cancelled first unless `replaces` says its tag does not need it (default: always cancelled).
    func start(_ tag: Tag, prepare: (TimelineSearchProgress) -> Void = { _ in },
               replaces: (Tag) -> Bool = { _ in true },
               _ work: @escaping @Sendable (TimelineSearchProgress) -> Outcome?) {
        let progress = TimelineSearchProgress()
        prepare(progress)
        condition.lock()
        if let running = current, replaces(running.tag) { running.progress.cancel() }
        current = (tag, progress)
        if keeping == .latest { outcomes = [] }
        unfinished += 1
        condition.unlock()
        queue.async { [self] in
            let outcome = work(progress)
            condition.lock()
            let isCurrent = current?.progress === progress
            if isCurrent { current = nil }
            if let outcome, isCurrent || keeping == .every { outcomes.append(outcome) }
            unfinished -= 1
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Keeps `outcome` now, ahead of the computation's last, while the computation `progress` belongs to is current
    /// and not cancelled (a chart filling in as its slices come); dropped otherwise. Called from the work itself.
    func report(_ outcome: Outcome, of progress: TimelineSearchProgress) {
        condition.lock()
        if current?.progress === progress && !progress.isCancelled { outcomes.append(outcome) }
        condition.unlock()
    }

    /// Cancels the current computation, if any (it stops at its next check); true when one was running.
    @discardableResult
    func cancel() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard let current else { return false }
        current.progress.cancel()
        return true
    }

    /// The current computation's tag and how far it got, or nil when none runs.
    var running: (tag: Tag, searched: Int, total: Int)? {
        condition.lock()
        defer { condition.unlock() }
        guard let current else { return nil }
        let fraction = current.progress.fraction
        return (current.tag, fraction.searched, fraction.total)
    }

    /// The outcomes kept since the last call, in the order their computations finished.
    func takeOutcomes() -> [Outcome] {
        condition.lock()
        defer { condition.unlock() }
        let taken = outcomes
        outcomes = []
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
