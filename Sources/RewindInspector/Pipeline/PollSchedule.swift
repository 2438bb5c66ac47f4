/// How long the pipeline waits between looks at the outbox: about a quarter of the app's time between dispatches,
/// between ``fastest`` and ``slowest`` — or, for an app dispatching too quickly for that to help, ``batchingWait``.
///
/// The app's thread never wakes the pipeline (that would be a system call per dispatch), so the pipeline polls. An
/// entry the pipeline has not yet taken still holds its state, and when the app changes that state again the
/// reducer copies the arrays on the changed path (copy-on-write), on the app's thread. Polling at a quarter of the
/// dispatch interval lets the pipeline take, encode and release a state well before the app's next change (as long
/// as encoding keeps up), while an app that dispatches rarely, or has gone idle, costs only ``slowest``'s few hundred
/// wake-ups a second — until it has been quiet for ``parkAfter``: then the pipeline parks, and the app's next
/// dispatch wakes it.
///
/// An app dispatching more often than every two ``fastest`` waits (over 2,000 actions a second) changes its state
/// again before even the fastest polling can let the last one go, so it pays that copy whatever the pipeline does.
/// For it the pipeline waits ``batchingWait`` instead and takes what queued meanwhile in one batch: every look at
/// the outbox and every message costs a fixed amount (the wait's system call, the framing, a wake-up of the
/// transport's thread and of the daemon's), and spreading it over more actions lowers the processor time per action
/// (`make bench`'s sustained-rate steps measure it), at no cost on the app's thread.
///
/// Threading: a value type owned by the pipeline thread.
struct PollSchedule: Sendable {
    /// The shortest quarter-interval wait, in seconds (for apps dispatching every millisecond or faster).
    var fastest: Double = 0.000_25
    /// The wait, in seconds, for an app dispatching more often than every two ``fastest`` waits: the entries queued
    /// meanwhile are taken in one batch.
    var batchingWait: Double = 0.001
    /// The longest wait, in seconds (idle apps, and apps dispatching less than about 60 times a second).
    var slowest: Double = 0.004
    /// After this long without an entry, in seconds, the pipeline parks: it waits until the app's next dispatch wakes
    /// it (one wake-up per idle period, see ``Outbox/drain(waitingUpTo:limit:parking:)``) instead of polling.
    var parkAfter: Double = 0.25
    /// The longest a parked pipeline waits, in seconds, when nothing wakes it (it then looks after its connection
    /// and goes back to sleep): at most one wake-up a second while the app is idle.
    var parkedWait: Double = 1.0
    /// How much of each new interval the running estimate takes (an exponential moving average).
    var smoothing: Double = 0.25
    /// The estimated time between dispatches, in seconds; nil until two dispatches were seen.
    private(set) var dispatchInterval: Double?
    /// When the newest dispatch seen finished (``DispatchClock`` nanoseconds).
    private var lastDispatch: UInt64?

    /// Notes a dispatch that finished at `nanos` (``DispatchClock``), in the order the app made them.
    mutating func observeDispatch(at nanos: UInt64) {
        if let lastDispatch, nanos >= lastDispatch {
            let interval = Double(nanos - lastDispatch) / 1e9
            dispatchInterval = dispatchInterval.map { $0 + smoothing * (interval - $0) } ?? interval
        }
        lastDispatch = nanos
    }

    /// How long to wait for the next entry at `now` (``DispatchClock`` nanoseconds): a quarter of the estimated
    /// interval between dispatches, or of the time since the last one once that is longer (an app that stopped
    /// dispatching slows the polling down within a few of its own intervals); ``batchingWait`` while that interval
    /// is shorter than two ``fastest`` waits.
    func wait(now: UInt64) -> Double {
        guard let dispatchInterval, let lastDispatch else { return slowest }
        let quiet = now > lastDispatch ? Double(now - lastDispatch) / 1e9 : 0
        let interval = max(dispatchInterval, quiet)
        if interval < 2 * fastest { return batchingWait }
        return min(slowest, max(fastest, interval / 4))
    }
}
