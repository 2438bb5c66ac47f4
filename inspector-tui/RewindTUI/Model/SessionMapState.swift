import RewindSessionFile

/// The session map beside the timeline's rows (`M`, issue 33): what the map thread last computed for the selected
/// session, and what it was last asked, so that the controller asks again only when something changed — the session,
/// the map's height (one bucket per row), the search whose matches it marks, or, at most once per
/// ``growthInterval``, the event count of a session that grows. A plain value type.
package struct SessionMapState: Sendable, Hashable {
    /// What one computation is for: the map of `session`'s events 0…`count` in `buckets` buckets, with the matches
    /// of `filter` (none when nil). `kinds` false: only the matches are to be computed (the rest is as known).
    package struct Request: Sendable, Hashable {
        /// The session.
        package var session: String
        /// The events mapped are 0…`count`.
        package var count: Int
        /// How many buckets (the map's rows).
        package var buckets: Int
        /// The label search whose matches are marked, if any.
        package var filter: TimelineLabelFilter?
        /// Whether the kinds are to be computed (false: only the matches changed).
        package var kinds = true
    }

    /// How often a growing session's map is computed again, at most (seconds).
    package static let growthInterval = 1.0

    /// The session.
    package var session: String
    /// The last map computed (kinds and matches), for `mapped.range` and `mapped.buckets.count`; nil before the first.
    package var mapped: SessionMap?
    /// The pattern of the search whose matches `mapped` marks (nil: none marked).
    package var matchedPattern: String?
    /// Why the last computation failed, if it did.
    package var failure: String?
    /// The last request handed to the map thread, and when (monotonic seconds).
    package var asked: Request?
    /// When `asked` was handed over.
    package var askedAt = -Double.infinity
    /// Whether `asked` is still being computed.
    package var computing = false

    /// A map of `session` not computed yet.
    package init(session: String) {
        self.session = session
    }

    /// The request to hand to the map thread now for a map of events 0…`count` in `buckets` buckets marking the
    /// matches of `filter`, or nil when the last one asked covers it, or only the count grew and less than
    /// ``growthInterval`` passed since the last request (or it is still computing).
    package func request(count: Int, buckets: Int, filter: TimelineLabelFilter?, now: Double) -> Request? {
        var wanted = Request(session: session, count: count, buckets: buckets, filter: filter)
        guard let asked else { return wanted }
        if asked.count == count && asked.buckets == buckets && asked.filter == filter { return nil }
        if asked.buckets == buckets && asked.filter == filter {
            // Only the count moved (a live session): bounded rate, and one computation at a time.
            if computing || now - askedAt < Self.growthInterval { return nil }
        }
        if asked.count == count && asked.buckets == buckets && !computing && mapped?.range == 0...Int64(count)
            && mapped?.buckets.count == buckets {
            wanted.kinds = false  // only the search changed: the kinds are as known
        }
        return wanted
    }

    /// Takes a finished computation in: `map` (its matches marked when `request.filter` is set) or why it failed.
    /// Ignored unless it answers the last request.
    package mutating func receive(_ request: Request, map: SessionMap?, failure: String?) {
        guard request == asked else { return }
        computing = false
        guard let map else {
            self.failure = failure
            return
        }
        self.failure = nil
        if request.kinds || mapped == nil {
            mapped = map
        } else if var known = mapped, known.buckets.count == map.buckets.count {
            // Only the matches were computed: keep the kinds.
            for bucket in known.buckets.indices {
                known.buckets[bucket].remove(.match)
                known.buckets[bucket].formUnion(map.buckets[bucket].intersection(.match))
            }
            mapped = known
        } else {
            mapped = map
            asked = nil  // the kinds are not known for this map: compute everything again
        }
        matchedPattern = request.filter?.pattern
    }
}
