import Foundation

/// Runs one kind of read (the pinned watches' values, the value plot's samples) on a thread of its own, so that
/// however long a read takes the screen never waits for it. One read at a time: starting another cancels the running
/// one (it stops at its next check of its `TimelineSearchProgress`, and reports nothing), since only the newest
/// request still matters to the screen.
///
/// Threading: every method may be called from any thread (the UI thread, in practice); `work` runs on the runner's
/// serial queue. State is guarded by `condition`.
final class LatestRequestRunner<Request: Sendable, Answer: Sendable>: @unchecked Sendable {  // see `condition`
    /// A finished (or failed) read.
    struct Outcome: Sendable {
        /// What it was asked.
        let request: Request
        /// The answer; nil when it failed.
        let answer: Answer?
        /// Why it failed, if it did.
        let failure: String?
    }

    /// Answers one request on the runner's thread.
    private let work: @Sendable (Request, TimelineSearchProgress) throws -> Answer
    /// The runner's serial queue (its thread).
    private let queue: DispatchQueue
    /// Guards the state below; signalled when a read finishes.
    private let condition = NSCondition()
    /// The running read's progress (to cancel it), if any.
    private var current: TimelineSearchProgress?
    /// The reads finished and not taken yet.
    private var outcomes: [Outcome] = []
    /// The reads started and not finished (cancelled ones included).
    private var unfinished = 0

    /// A runner whose thread is labelled `label` and answers each request with `work` (which checks the progress it
    /// is given between steps and throws `TimelineSearchProgress.Cancelled` once it is cancelled).
    init(label: String, work: @escaping @Sendable (Request, TimelineSearchProgress) throws -> Answer) {
        self.work = work
        queue = DispatchQueue(label: label)
    }

    /// Answers `request` on the runner's thread (a running read is cancelled).
    func start(_ request: Request) {
        let progress = TimelineSearchProgress()
        condition.lock()
        current?.cancel()
        current = progress
        unfinished += 1
        condition.unlock()
        queue.async { [self] in
            let outcome: Outcome?
            do {
                try progress.check()
                outcome = Outcome(request: request, answer: try work(request, progress), failure: nil)
            } catch is TimelineSearchProgress.Cancelled {
                outcome = nil
            } catch {
                outcome = Outcome(request: request, answer: nil, failure: "\(error)")
            }
            condition.lock()
            if current === progress { current = nil }
            if let outcome { outcomes.append(outcome) }
            unfinished -= 1
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Cancels the running read, if any.
    func cancel() {
        condition.lock()
        current?.cancel()
        current = nil
        condition.unlock()
    }

    /// The reads finished since the last call, in order.
    func takeOutcomes() -> [Outcome] {
        condition.lock()
        defer { condition.unlock() }
        let taken = outcomes
        outcomes = []
        return taken
    }

    /// Waits until nothing is being read (at most `timeout` seconds); true when nothing is.
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
