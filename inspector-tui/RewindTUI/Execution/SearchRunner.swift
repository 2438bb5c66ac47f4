import Foundation

/// Runs the timeline's searches (`/`, `n`, `N`) on a thread of their own, one at a time, so that a search through
/// a million events never freezes the screen: the UI thread starts one, reads its progress each frame, cancels it
/// (Esc, or a new search), and takes its outcome when it is done.
///
/// A search looks from its start to the end of the session in its direction, then wraps around once.
///
/// Threading: every method may be called from any thread (the UI thread, in practice); searches run on the
/// runner's serial queue. State is guarded by `condition`.
final class SearchRunner: @unchecked Sendable {  // mutable state guarded by `condition`; the source is Sendable
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
    private let queue = DispatchQueue(label: "rewind.timeline.search")
    private let condition = NSCondition()
    private var current: (request: TimelineSearchRequest, progress: TimelineSearchProgress)?
    private var outcome: Outcome?
    private var unfinished = 0

    /// A runner searching `dataSource`.
    init(dataSource: any TimelineDataSource) {
        self.dataSource = dataSource
    }

    /// Starts `request`, cancelling the search running, if any (its outcome is dropped).
    func start(_ request: TimelineSearchRequest) {
        let progress = TimelineSearchProgress()
        progress.overallTotal = request.count
        condition.lock()
        current?.progress.cancel()
        current = (request, progress)
        outcome = nil
        unfinished += 1
        condition.unlock()
        queue.async { [self] in
            let result = run(request, progress)
            condition.lock()
            if current?.progress === progress {
                current = nil
                outcome = result
            }
            unfinished -= 1
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Cancels the running search; true when one was running.
    @discardableResult
    func cancel() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard let current else { return false }
        current.progress.cancel()
        return true
    }

    /// The running search and how far it got, or nil.
    var running: (request: TimelineSearchRequest, searched: Int, total: Int)? {
        condition.lock()
        defer { condition.unlock() }
        guard let current else { return nil }
        let fraction = current.progress.fraction
        return (current.request, fraction.searched, fraction.total)
    }

    /// The outcome of the last search, once (nil while it runs, or when already taken).
    func takeOutcome() -> Outcome? {
        condition.lock()
        defer { condition.unlock() }
        let taken = outcome
        outcome = nil
        return taken
    }

    /// Waits until no search runs (at most `timeout` seconds); true when none does.
    func waitUntilIdle(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while unfinished > 0 {
            if !condition.wait(until: deadline) { return unfinished == 0 }
        }
        return true
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
