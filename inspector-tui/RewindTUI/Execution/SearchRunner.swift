import Foundation

/// Runs the timeline's searches (`/`, `n`, `N`) on a thread of their own, one at a time, so that a search through
/// a million events never freezes the screen: the UI thread starts one, reads its progress each frame, cancels it
/// (Esc, or a new search), and takes its outcome when it is done.
///
/// A search looks from its start to the end of the session in its direction, then wraps around once.
///
/// Threading: every method may be called from any thread (the UI thread, in practice); searches run on the
/// runner's serial queue (``BackgroundWork``).
final class SearchRunner: BackgroundRunner, Sendable {
    /// A finished (or cancelled, or failed) search.
    struct Outcome: Sendable {
        /// The search.
        let request: TimelineSearchRequest
        /// The event found, nil when none matches.
        let found: Int?
        /// Whether it was found after wrapping around.
        let wrapped: Bool
        /// Whether Esc (or a newer search) stopped it.
        let cancelled: Bool
        /// Why it failed (a file that cannot be read), if it did.
        let failure: String?
    }

    private let dataSource: any TimelineDataSource
    /// The queue, the current computation and the outcomes not taken yet (``BackgroundRunner``).
    let work = BackgroundWork<TimelineSearchRequest, Outcome>(label: "rewind.timeline.search",
                                                                      keeping: .latest)

    /// A runner searching `dataSource`.
    init(dataSource: any TimelineDataSource) {
        self.dataSource = dataSource
    }

    /// Starts `request`, cancelling the search running, if any (its outcome is dropped).
    func start(_ request: TimelineSearchRequest) {
        work.start(request, prepare: { $0.overallTotal = request.count }) { [self] progress in
            run(request, progress)
        }
    }

    /// The running search and how far it got, or nil.
    var running: (request: TimelineSearchRequest, searched: Int, total: Int)? {
        work.running.map { (request: $0.tag, searched: $0.searched, total: $0.total) }
    }

    /// The outcome of the last search, once (nil while it runs, or when already taken).
    func takeOutcome() -> Outcome? {
        work.takeOutcomes().last
    }

    /// The search itself, on the runner's queue.
    private func run(_ request: TimelineSearchRequest, _ progress: TimelineSearchProgress) -> Outcome {
        let count = request.count
        func outcome(_ found: Int?, wrapped: Bool = false, cancelled: Bool = false, failure: String? = nil) -> Outcome {
            Outcome(request: request, found: found, wrapped: wrapped, cancelled: cancelled, failure: failure)
        }
        guard count > 0 else { return outcome(nil) }
        // From the start to the end in the search's direction, then the rest (wrapping around).
        var passes: [(range: ClosedRange<Int>, wrapped: Bool)] = []
        if request.forward {
            if request.start > count {
                passes = [(1...count, true)]
            } else {
                let start = max(1, request.start)
                passes = [(start...count, false)] + (start > 1 ? [(1...(start - 1), true)] : [])
            }
        } else {
            if request.start < 1 {
                passes = [(1...count, true)]
            } else {
                let start = min(count, request.start)
                passes = [(1...start, false)] + (start < count ? [((start + 1)...count, true)] : [])
            }
        }
        do {
            for pass in passes {
                if let found = try dataSource.firstEvent(session: request.session, matching: request.query,
                                                         in: pass.range, forward: request.forward, progress: progress) {
                    return outcome(found, wrapped: pass.wrapped)
                }
                progress.offset += pass.range.count
            }
            return outcome(nil)
        } catch is TimelineSearchProgress.Cancelled {
            return outcome(nil, cancelled: true)
        } catch {
            return outcome(nil, failure: "\(error)")
        }
    }
}
