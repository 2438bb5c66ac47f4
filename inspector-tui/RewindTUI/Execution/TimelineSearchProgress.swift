import Foundation

/// How far a running search has got, and whether the user cancelled it (Esc): shared between the UI thread, which
/// reads and cancels, and the search thread, which reports and checks.
///
/// Threading: every member may be used from any thread; state is guarded by a lock.
package final class TimelineSearchProgress: @unchecked Sendable {  // all mutable state guarded by `lock`
    private let lock = NSLock()
    private var cancelled = false
    private var searchedCount = 0
    private var totalCount = 0
    /// Events searched by the earlier passes (a wrapped search's first pass), added to what `report` says.
    var offset = 0
    /// The events of all passes together (set by the runner; nil: the current pass's total).
    var overallTotal: Int?

    /// A fresh progress: nothing searched, not cancelled.
    package init() {}

    /// Asks the search to stop at its next check.
    package func cancel() {
        lock.withLock { cancelled = true }
    }

    /// Whether `cancel()` was called.
    package var isCancelled: Bool {
        lock.withLock { cancelled }
    }

    /// The search thread: `searched` events of the current pass are done, of `total` in all.
    package func report(searched: Int, of total: Int) {
        lock.withLock {
            searchedCount = offset + searched
            totalCount = overallTotal ?? total
        }
    }

    /// Events searched so far and in all (0 of 0 before the first report).
    package var fraction: (searched: Int, total: Int) {
        lock.withLock { (searchedCount, totalCount) }
    }

    /// Throws `Cancelled` when the search was cancelled: the search thread calls it between chunks.
    package func check() throws(Cancelled) {
        if isCancelled { throw Cancelled() }
    }

    /// Thrown by a search that was cancelled.
    package struct Cancelled: Error, Sendable {}
}
