import Foundation

/// Runs one kind of read (the pinned watches' values, the value plot's samples) on a thread of its own, so that
/// however long a read takes the screen never waits for it. One read at a time: starting another cancels the running
/// one (it stops at its next check of its `TimelineSearchProgress`, and reports nothing), since only the newest
/// request still matters to the screen.
///
/// Threading: every method may be called from any thread (the UI thread, in practice); `work` runs on the runner's
/// serial queue (``BackgroundWork``).
final class LatestRequestRunner<Request: Sendable, Answer: Sendable>: BackgroundRunner, Sendable {
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
    private let answer: @Sendable (Request, TimelineSearchProgress) throws -> Answer
    /// The runner's queue, the running read and the outcomes not taken yet.
    let work: BackgroundWork<Request, Outcome>

    /// A runner whose thread is labelled `label` and answers each request with `work` (which checks the progress it
    /// is given between steps and throws `TimelineSearchProgress.Cancelled` once it is cancelled).
    init(label: String, work: @escaping @Sendable (Request, TimelineSearchProgress) throws -> Answer) {
        answer = work
        self.work = BackgroundWork(label: label, keeping: .every)
    }

    /// Answers `request` on the runner's thread (a running read is cancelled).
    func start(_ request: Request) {
        work.start(request) { [answer] progress in
            do {
                try progress.check()
                return Outcome(request: request, answer: try answer(request, progress), failure: nil)
            } catch is TimelineSearchProgress.Cancelled {
                return nil
            } catch {
                return Outcome(request: request, answer: nil, failure: "\(error)")
            }
        }
    }
}
