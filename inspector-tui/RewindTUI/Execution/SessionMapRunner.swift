import Foundation
import RewindSessionFile

/// Computes the session map (`TimelineDataSource.sessionMap` and `matchBuckets`) on a thread of its own, so that a
/// million-event session never freezes the screen. One computation at a time: starting another cancels the running
/// one (it stops at its next check, and reports nothing).
///
/// Threading: every method may be called from any thread (the UI thread, in practice); the work runs on the
/// runner's serial queue (``BackgroundWork``).
final class SessionMapRunner: BackgroundRunner, Sendable {
    /// A finished (or failed) computation.
    struct Outcome: Sendable {
        /// What it was asked.
        let request: SessionMapState.Request
        /// The map, its matches marked; nil when it failed.
        let map: SessionMap?
        /// Why it failed, if it did.
        let failure: String?
    }

    private let dataSource: any TimelineDataSource
    /// The queue, the current computation and the outcomes not taken yet (``BackgroundRunner``).
    let work = BackgroundWork<SessionMapState.Request, Outcome>(label: "rewind.timeline.map", keeping: .every)

    /// A runner reading `dataSource`.
    init(dataSource: any TimelineDataSource) {
        self.dataSource = dataSource
    }

    /// Computes what `request` asks (a running computation is cancelled).
    func start(_ request: SessionMapState.Request) {
        work.start(request) { [self] progress in
            do {
                return Outcome(request: request, map: try compute(request, progress: progress), failure: nil)
            } catch is TimelineSearchProgress.Cancelled {
                return nil
            } catch {
                return Outcome(request: request, map: nil, failure: "\(error)")
            }
        }
    }

    private func compute(_ request: SessionMapState.Request, progress: TimelineSearchProgress) throws -> SessionMap {
        let range = 0...Int64(max(0, request.count))
        var map = request.kinds
            ? try dataSource.sessionMap(session: request.session, count: request.count, buckets: request.buckets,
                                        progress: progress)
            : SessionMap(range: range, buckets: request.buckets)
        if let filter = request.filter {
            let matches = try dataSource.matchBuckets(session: request.session, filter: filter, count: request.count,
                                                      buckets: request.buckets, progress: progress)
            for (bucket, matched) in matches.enumerated() where matched && map.buckets.indices.contains(bucket) {
                map.buckets[bucket].insert(.match)
            }
        }
        return map
    }
}
