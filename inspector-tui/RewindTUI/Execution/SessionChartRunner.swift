import Foundation
import RewindSessionFile

/// Computes the chart's slices (`TimelineDataSource.sessionChart`) on a thread of its own (with helpers: each few
/// slices are shared among ``backgroundParallelism`` threads), so that a million-event session never freezes the screen. One computation at a time: starting another cancels the running one (it stops
/// at its next check, between slices, and reports nothing). It asks for the slices a few at a time, left to right —
/// one first, then as many as take about ``chunkSeconds`` — and, when asked to be progressive (a chart not shown
/// yet), reports the chart after each few, so that a long session's chart starts drawing at once and fills in.
///
/// Threading: every method may be called from any thread (the UI thread, in practice); the work runs on the
/// runner's serial queue (``BackgroundWork``).
final class SessionChartRunner: BackgroundRunner, Sendable {
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
        /// Whether every slice is computed (false: a progressive report, the slices to its right still empty).
        let complete: Bool
    }

    /// About how long one request to the data source takes (seconds): the slices asked at a time are sized to it.
    static let chunkSeconds = 0.05

    private let dataSource: any TimelineDataSource
    /// The queue, the current computation and the outcomes not taken yet (``BackgroundRunner``).
    let work = BackgroundWork<SessionChartState.Request, Outcome>(label: "rewind.timeline.chart",
                                                                         keeping: .every)

    /// A runner reading `dataSource`.
    init(dataSource: any TimelineDataSource) {
        self.dataSource = dataSource
    }

    /// Computes what `request` asks (a running computation is cancelled); `progressive`: reports the chart as its
    /// slices come, not only once complete.
    func start(_ request: SessionChartState.Request, progressive: Bool) {
        work.start(request) { [self] progress in
            let started = MonotonicClock.now()
            do {
                let chart = try compute(request, progress: progress) { partial in
                    guard progressive else { return }
                    work.report(Outcome(request: request, chart: partial, failure: nil,
                                        seconds: MonotonicClock.now() - started, complete: false), of: progress)
                }
                return Outcome(request: request, chart: chart, failure: nil, seconds: MonotonicClock.now() - started,
                               complete: true)
            } catch is TimelineSearchProgress.Cancelled {
                return nil
            } catch {
                return Outcome(request: request, chart: nil, failure: "\(error)",
                               seconds: MonotonicClock.now() - started, complete: true)
            }
        }
    }

    /// The chart `request` asks for, its slices asked a few at a time (sized to take about `chunkSeconds`), handing
    /// the chart so far to `partial` after each few but the last. Runs on the runner's queue.
    private func compute(
        _ request: SessionChartState.Request, progress: TimelineSearchProgress, partial: (SessionChart) -> Void
    ) throws -> SessionChart {
        var chart = SessionChart(range: 0...Int64(max(0, request.count)), buckets: request.buckets)
        var next = 0
        var size = 1
        while next < request.buckets {
            let slices = next..<min(request.buckets, next + size)
            let begun = MonotonicClock.now()
            for part in try parts(of: slices, for: request, progress: progress) {
                for bucket in part.slices where part.chart.buckets.indices.contains(bucket) {
                    chart.buckets[bucket] = part.chart.buckets[bucket]
                }
            }
            try progress.check()
            next = slices.upperBound
            let perSlice = (MonotonicClock.now() - begun) / Double(slices.count)
            size = perSlice > 0 ? min(request.buckets, max(1, Int(Self.chunkSeconds / perSlice))) : request.buckets
            if next < request.buckets { partial(chart) }
        }
        return chart
    }

    /// `slices` computed by up to ``backgroundParallelism`` threads at once (``concurrently(_:_:)``), each share a
    /// contiguous run of them; with the share each chart holds.
    private func parts(
        of slices: Range<Int>, for request: SessionChartState.Request, progress: TimelineSearchProgress
    ) throws -> [(slices: Range<Int>, chart: SessionChart)] {
        let shares = max(1, min(backgroundParallelism, slices.count))
        let shareSize = (slices.count + shares - 1) / shares
        let runs = stride(from: slices.lowerBound, to: slices.upperBound, by: max(1, shareSize)).map {
            $0..<min(slices.upperBound, $0 + shareSize)
        }
        let charts = try concurrently(runs.count) { share in
            try dataSource.sessionChart(session: request.session, count: request.count, buckets: request.buckets,
                                        slices: runs[share], progress: progress)
        }
        return Array(zip(runs, charts))
    }
}
