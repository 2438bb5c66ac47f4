import Foundation
import RewindSessionFile

/// Computes the stats view's tables (`TimelineDataSource.sessionStatistics`) on a thread of its own, so that a
/// million-event session never freezes the screen. One computation at a time: starting another cancels the running
/// one.
///
/// Threading: every method may be called from any thread (the UI thread, in practice); the work runs on the
/// runner's serial queue (``BackgroundWork``).
final class StatsRunner: BackgroundRunner, Sendable {
    /// A finished (or failed, or cancelled) computation.
    struct Outcome: Sendable {
        /// The session it was for.
        let session: String
        /// Each label's statistics (most frequent first) and the rankings of single events; nil when it failed.
        let statistics: SessionStatistics?
        /// Why it failed, if it did.
        let failure: String?
    }

    private let dataSource: any TimelineDataSource
    /// The queue, the current computation and the outcomes not taken yet (``BackgroundRunner``).
    let work = BackgroundWork<String, Outcome>(label: "rewind.timeline.stats", keeping: .latest)

    /// A runner reading `dataSource`.
    init(dataSource: any TimelineDataSource) {
        self.dataSource = dataSource
    }

    /// Computes the statistics of `session`'s first `count` events (a running computation is cancelled).
    func start(session: String, count: Int) {
        work.start(session) { [dataSource] progress in
            do {
                let statistics = try dataSource.sessionStatistics(session: session, count: count, progress: progress)
                return Outcome(session: session, statistics: statistics, failure: nil)
            } catch is TimelineSearchProgress.Cancelled {
                return nil
            } catch {
                return Outcome(session: session, statistics: nil, failure: "\(error)")
            }
        }
    }

    /// The computation finished since the last call, if any.
    func takeOutcome() -> Outcome? {
        work.takeOutcomes().last
    }
}
