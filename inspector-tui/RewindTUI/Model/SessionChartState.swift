import RewindSessionFile

/// The chart under the timeline's rows (`C`, issue 33): what the chart thread last computed for the selected session,
/// and what it was last asked, so that the controller asks again only when something changed — the session, the
/// chart's width (one slice per column), or, at most once per ``growthInterval``, the event count of a session that
/// grows. The metric shown is not part of it: every metric comes from the same slices. A plain value type.
package struct SessionChartState: Sendable, Hashable {
    /// What one computation is for: `session`'s events 0…`count` in `buckets` slices.
    package struct Request: Sendable, Hashable {
        /// The session.
        package var session: String
        /// The events charted are 0…`count`.
        package var count: Int
        /// How many slices (the chart's columns).
        package var buckets: Int

        /// A request for `session`'s events 0…`count` in `buckets` slices.
        package init(session: String, count: Int, buckets: Int) {
            self.session = session
            self.count = count
            self.buckets = buckets
        }
    }

    /// How often a growing session's chart is computed again, at most (seconds); less often when a computation
    /// takes long: at most once per three times the last one took, so that the chart thread of a large live session
    /// is idle at least two thirds of the time.
    package static let growthInterval = 0.5

    /// The session.
    package var session: String
    /// The last chart computed, for `charted.range` in `charted.buckets.count` slices (while the first computation
    /// goes on, the slices computed so far); nil before the first.
    package var charted: SessionChart?
    /// Whether `charted` is a progressive report: the first computation goes on, its slices to the right to come.
    package var partial = false
    /// Why the last computation failed, if it did.
    package var failure: String?
    /// The last request handed to the chart thread.
    package var asked: Request?
    /// When `asked` was handed over (monotonic seconds).
    package var askedAt = -Double.infinity
    /// Whether `asked` is still being computed.
    package var computing = false
    /// How long the last computation took (seconds; 0 before the first).
    package var lastSeconds = 0.0

    /// A chart of `session` not computed yet.
    package init(session: String) {
        self.session = session
    }

    /// The request to hand to the chart thread now for events 0…`count` in `buckets` slices, or nil when the last
    /// one asked covers it, or only the count grew and less than ``growthInterval`` passed since the last request
    /// (or it is still computing).
    package func request(count: Int, buckets: Int, now: Double) -> Request? {
        let wanted = Request(session: session, count: count, buckets: buckets)
        guard let asked else { return wanted }
        if asked == wanted { return nil }
        if asked.buckets == buckets && (computing || now - askedAt < max(Self.growthInterval, 3 * lastSeconds)) {
            return nil  // only the count moved (a live session): bounded rate, one computation at a time
        }
        return wanted
    }

    /// Takes a computation in: `chart`, or why it failed, and how long it took (`seconds`); `complete` false: a
    /// progressive report (the slices to its right not computed yet), shown while the computation goes on. Ignored
    /// unless it answers the last request.
    package mutating func receive(
        _ request: Request, chart: SessionChart?, failure: String?, seconds: Double = 0, complete: Bool = true
    ) {
        guard request == asked else { return }
        guard complete else {
            if let chart {
                charted = chart
                partial = true
            }
            return
        }
        computing = false
        lastSeconds = seconds
        partial = false
        if let chart {
            charted = chart
            self.failure = nil
        } else {
            self.failure = failure
        }
    }
}
