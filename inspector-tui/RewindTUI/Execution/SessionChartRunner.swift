import Foundation
import RewindSessionFile

/// Computes the chart's slices (`TimelineDataSource.sessionChart`) on a thread of its own, so that a million-event
/// session never freezes the screen. One computation at a time: starting another cancels the running one (it stops
/// at its next check, between slices, and reports nothing).
///
/// Threading: every method may be called from any thread (the UI thread, in practice); the work runs on the
/// runner's serial queue. State is guarded by `condition`.
final class SessionChartRunner: @unchecked Sendable {  // mutable state guarded by `condition`; the source is Sendable
    /// A finished (or failed) computation.
    struct Outcome: Sendable {
        /// What it was asked.
        let request: SessionChartState.Request
        /// The chart; nil when it failed.
        let chart: SessionChart?
        /// Why it failed, if it did.
        let failure: String?
        /// How long it took (seconds).
        let seconds: Double
    }

    private let dataSource: any TimelineDataSource
    private let queue = DispatchQueue(label: "rewind.timeline.chart")
    private let condition = NSCondition()
    private var current: TimelineSearchProgress?
    private var outcomes: [Outcome] = []
    private var unfinished = 0

    /// A runner reading `dataSource`.
    init(dataSource: any TimelineDataSource) {
        self.dataSource = dataSource
    }

    /// Computes what `request` asks (a running computation is cancelled).
    func start(_ request: SessionChartState.Request) {
        let progress = TimelineSearchProgress()
        condition.lock()
        current?.cancel()
        current = progress
        unfinished += 1
        condition.unlock()
        queue.async { [self] in
            let outcome: Outcome?
            let started = MonotonicClock.now()
            do {
                let chart = try dataSource.sessionChart(session: request.session, count: request.count,
                                                        buckets: request.buckets, progress: progress)
                outcome = Outcome(request: request, chart: chart, failure: nil, seconds: MonotonicClock.now() - started)
            } catch is TimelineSearchProgress.Cancelled {
                outcome = nil
            } catch {
                outcome = Outcome(request: request, chart: nil, failure: "\(error)",
                                  seconds: MonotonicClock.now() - started)
            }
            condition.lock()
            if current === progress { current = nil }
            if let outcome { outcomes.append(outcome) }
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

    /// The computations finished since the last call, in order.
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
