/// A computation of the timeline's that runs off the UI thread through a ``BackgroundWork`` (searches, row filters,
/// the stats table, the session map, the charts, the plot's and the pins' reads): what the UI thread does with any of
/// them — cancel it, take what finished, wait for it — forwarded to that work.
///
/// Threading: as ``BackgroundWork``: any thread.
protocol BackgroundRunner {
    /// What a computation is started for.
    associatedtype Tag: Sendable
    /// What a finished computation reports.
    associatedtype Outcome: Sendable
    /// The queue, the current computation and the outcomes not taken yet.
    var work: BackgroundWork<Tag, Outcome> { get }
}

extension BackgroundRunner {
    /// Cancels the running computation, if any (it stops at its next check); true when one was running.
    @discardableResult
    func cancel() -> Bool {
        work.cancel()
    }

    /// The outcomes kept since the last call, in the order their computations finished.
    func takeOutcomes() -> [Outcome] {
        work.takeOutcomes()
    }

    /// Waits until nothing is being computed (at most `timeout` seconds); true when nothing is.
    func waitUntilIdle(timeout: Double) -> Bool {
        work.waitUntilIdle(timeout: timeout)
    }
}
