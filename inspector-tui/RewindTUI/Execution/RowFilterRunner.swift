import Foundation

/// Computes the visible rows of a row filter (`TimelineRowFilter`) on a thread of its own, one stretch at a time —
/// the whole session when the filter is set, then each stretch a live session recorded since — so that filtering a
/// million events never freezes the screen. Starting a stretch of another filter cancels the running one.
///
/// Threading: every method may be called from any thread (the UI thread, in practice); the work runs on the
/// runner's serial queue (``BackgroundWork``).
final class RowFilterRunner: BackgroundRunner, Sendable {
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
    /// The queue, the current computation and the outcomes not taken yet (``BackgroundRunner``).
    let work = BackgroundWork<TimelineRowFilter, Outcome>(label: "rewind.timeline.rows", keeping: .every)

    /// A runner reading `dataSource`.
    init(dataSource: any TimelineDataSource) {
        self.dataSource = dataSource
    }

    /// Computes the rows `filter` shows in `range`, after the stretches already started for the same filter
    /// (a stretch of another filter is cancelled).
    func start(_ filter: TimelineRowFilter, range: ClosedRange<Int>) {
        work.start(filter, replaces: { !Self.same($0, filter) }) { [dataSource] progress in
            do {
                let rows = try dataSource.visibleEvents(session: filter.session, filter: filter, in: range,
                                                        progress: progress)
                return Outcome(filter: filter, range: range, rows: rows, failure: nil)
            } catch is TimelineSearchProgress.Cancelled {
                return Outcome(filter: filter, range: range, rows: nil, failure: nil)
            } catch {
                return Outcome(filter: filter, range: range, rows: nil, failure: "\(error)")
            }
        }
    }

    /// How far the running stretch got, or nil when none runs.
    var running: (searched: Int, total: Int)? {
        work.running.map { ($0.searched, $0.total) }
    }

    /// Whether two filters hide the same rows of the same session.
    static func same(_ a: TimelineRowFilter, _ b: TimelineRowFilter) -> Bool {
        a.session == b.session && a.labels == b.labels && a.hiddenKinds == b.hiddenKinds
    }
}
