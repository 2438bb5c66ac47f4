/// The second line of the inspector's memory bound: watches the process's resident memory while the outbox holds
/// entries and tells the pipeline to refuse states when it grew by more than its limit (half the budget) since the
/// pipeline last caught up (the outbox held no more than about a batch) — whatever the charges say, so that a charge that under-estimates what a state holds (a state that grew
/// faster than it was measured) cannot put the app at risk.
///
/// The outbox's charges are the first line (see ``Outbox``); this watch measures instead of estimating. It counts
/// whatever grows the process while entries are queued, the app's own allocations included: an app that allocates a
/// lot while the inspector is behind sees more of its states coalesced, never more memory taken.
///
/// Threading: a value owned by the pipeline thread.
struct ResidentMemoryWatch {
    /// The growth above which states are refused, bytes (half the inspector's memory budget).
    let limitBytes: Int
    /// How often the resident memory is read, at most, in seconds.
    let interval: Double
    /// The resident memory when the pipeline was last found caught up, bytes.
    private(set) var baselineBytes: Int?
    /// The resident memory last read, bytes.
    private(set) var lastBytes: Int?
    /// True while states are refused.
    private(set) var refusing = false
    private var lastRead = -Double.infinity
    /// Reads the resident memory (``ResidentMemory/currentBytes()``, or a stand-in in tests).
    private let read: () -> Int?

    /// A watch refusing states past `limitBytes` of growth, reading at most every `interval` seconds with `read`.
    init(limitBytes: Int, interval: Double = 0.001, read: @escaping () -> Int? = ResidentMemory.currentBytes) {
        self.limitBytes = max(1, limitBytes)
        self.interval = interval
        self.read = read
    }

    /// Reads the resident memory when `interval` has passed since the last reading; `caughtUp`: the outbox holds
    /// little (the moment the baseline is taken: while an app dispatches steadily the outbox is seldom empty, and a
    /// baseline that old would count every later allocation of the process). Returns the new decision when it
    /// changed: `true` to refuse states from now on, `false` to let the charges decide again (once the growth is back
    /// under three quarters of the limit, or the pipeline caught up).
    mutating func check(now: Double, caughtUp: Bool) -> Bool? {
        guard now - lastRead >= interval else { return nil }
        lastRead = now
        guard let bytes = read() else { return nil }
        lastBytes = bytes
        if caughtUp || baselineBytes == nil { baselineBytes = bytes }
        let grown = bytes - (baselineBytes ?? bytes)
        let refuse = refusing ? grown > limitBytes * 3 / 4 : grown > limitBytes
        guard refuse != refusing else { return nil }
        refusing = refuse
        return refuse
    }
}
