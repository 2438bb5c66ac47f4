import RewindSessionFile

extension TimelineDataSource {
    /// The most events the default implementations map row by row: beyond, a source without an index of its own
    /// shows an empty map rather than reading every row (session files have their own, `SessionTimelineSource+Map`).
    package static var rowByRowMapLimit: Int { 100_000 }

    /// Reads rows in chunks of 1,000 through `events(session:range:)`: each row's kind, branch and unknown state
    /// (nothing marked beyond `rowByRowMapLimit` events). Right for in-memory sources; session files do better
    /// (`SessionTimelineSource+Map.swift`).
    package func sessionMap(session: String, count: Int, buckets: Int, progress: TimelineSearchProgress) throws
        -> SessionMap {
        var map = SessionMap(range: 0...Int64(max(0, count)), buckets: buckets)
        guard count <= Self.rowByRowMapLimit else { return map }
        try forEachRow(session: session, count: count, progress: progress) { event in
            var marks = SessionMap.Marks.of(event.kind)
            if event.branch != 0 { marks.insert(.branch) }
            if event.stateUnknown { marks.insert(.unknown) }
            if !marks.isEmpty { map.mark(marks, from: Int64(event.index), through: Int64(event.index)) }
        }
        return map
    }

    /// Reads rows in chunks of 1,000 through `events(session:range:)` and matches each label (nothing marked beyond
    /// `rowByRowMapLimit` events).
    package func matchBuckets(
        session: String, filter: TimelineLabelFilter, count: Int, buckets: Int, progress: TimelineSearchProgress
    ) throws -> [Bool] {
        let range = 0...Int64(max(0, count))
        var result = Array(repeating: false, count: max(0, buckets))
        guard count <= Self.rowByRowMapLimit else { return result }
        try forEachRow(session: session, count: count, progress: progress) { event in
            if filter.matches(event) {
                result[SessionMap.bucket(of: Int64(event.index), in: range, buckets: buckets)] = true
            }
        }
        return result
    }

    private func forEachRow(
        session: String, count: Int, progress: TimelineSearchProgress, _ body: (TimelineEvent) -> Void
    ) throws {
        var position = 1
        while position <= count {
            try progress.check()
            progress.report(searched: position - 1, of: count)
            let last = min(count, position + 999)
            for event in try events(session: session, range: position...last) { body(event) }
            position = last + 1
        }
    }
}
