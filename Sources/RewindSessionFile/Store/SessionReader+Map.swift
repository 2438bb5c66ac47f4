import RewindWire

/// The session at a glance (the timeline's map, issue 33): what occurs in each of N equal slices of a range of events,
/// from the file's indexes and one narrow scan, never by reading every row's payload into Swift.
extension SessionReader {
    /// The labels ``labelBuckets(_:buckets:in:)`` looks up one by one through the label index, a seek per label and
    /// bucket; more go through one scan with an `IN` list.
    package static let mapSeekLabels = 24

    /// What occurs in each of `buckets` equal slices of `range` (every branch): errors, dropped rows, jumps, replays,
    /// skips, reconnects, rows of recomputed branches and rows whose state is unknown, from one SQL query that hands
    /// back only the rows that are none of the usual (plain main-line actions, snapshots, dispatches, notes with a
    /// known state), one per bucket and kind (`SELECT DISTINCT`): through the file's partial indexes of such rows
    /// (`events_notable`, `events_on_branches`, `events_unknown`) when it has them, a seek per such row; otherwise
    /// one narrow scan (about 0.4 s for 1,000,000 events). A file of schema 1 has no per-row mark, so its stretches
    /// of unknown state (``unknownStates()``) are marked whole. Never marks ``SessionMap/Marks/match`` (see
    /// ``labelBuckets(_:buckets:in:)``). May be called from any thread; hold a reader of its own for long work.
    package func sessionMap(buckets: Int, in range: ClosedRange<Int64>) throws(SessionStoreError) -> SessionMap {
        var map = SessionMap(range: range, buckets: buckets)
        guard buckets > 0 else { return map }
        try locked { () throws(SessionStoreError) in
            // Schema 2 says row by row whether a state is unknown; schema 1 (read as a migration) through its stretches.
            let unknown = file.schemaVersion >= 2 ? "unknown IS NOT NULL" : "0"
            let notable = SessionSchema.notableCondition
            // With the index of the rarer kinds, the rows come from three partial indexes (rarer kinds, branches,
            // unknown states): as many steps as such rows, not a scan of the range. (`+idx`: not by the primary key,
            // which SQLite would otherwise pick for the range, reading every row of it.)
            let rows = try file.hasIndex(named: SessionSchema.notableIndexName) && file.schemaVersion >= 2
                ? """
                  idx IN (SELECT idx FROM events WHERE \(notable) AND +idx BETWEEN ?1 AND ?2
                          UNION SELECT idx FROM events WHERE branch <> 0 AND +idx BETWEEN ?1 AND ?2
                          UNION SELECT idx FROM events WHERE unknown IS NOT NULL AND +idx BETWEEN ?1 AND ?2)
                  """
                : "(\(notable) OR branch <> 0 OR \(unknown))"
            let statement = try file.database.prepare("""
                SELECT DISTINCT CAST(CAST(idx - ?1 AS REAL) * ?3 / ?4 AS INTEGER), kind, branch <> 0, \(unknown)
                FROM events WHERE idx BETWEEN ?1 AND ?2 AND \(rows)
                """)
            defer { statement.reset() }
            statement.bind(range.lowerBound, at: 1)
            statement.bind(range.upperBound, at: 2)
            statement.bind(Double(buckets), at: 3)
            statement.bind(Double(range.upperBound) - Double(range.lowerBound) + 1, at: 4)
            while try statement.step() {
                let bucket = min(max(0, Int(statement.int64(at: 0))), buckets - 1)
                var marks = statement.string(at: 1).flatMap(EventKind.init(rawValue:)).map(SessionMap.Marks.of) ?? []
                if statement.int64(at: 2) != 0 { marks.insert(.branch) }
                if statement.int64(at: 3) != 0 { marks.insert(.unknown) }
                map.buckets[bucket].formUnion(marks)
            }
        }
        if file.schemaVersion < 2 {
            for stretch in try unknownStates() {
                map.mark(.unknown, from: stretch.first, through: stretch.last ?? range.upperBound)
            }
        }
        return map
    }

    /// For each of `buckets` equal slices of `range` (every branch), whether an event in it shows one of `labels`
    /// (`coalesce(label, kind)`, as the timeline shows it). With the label index (files written by this build) and at
    /// most ``mapSeekLabels`` labels: per label, one index seek per bucket that holds it (the next seek starts at the
    /// following bucket), so a label on every row costs `buckets` seeks, not a scan; otherwise one scan of the range.
    /// May be called from any thread.
    package func labelBuckets(_ labels: Set<String>, buckets: Int, in range: ClosedRange<Int64>)
        throws(SessionStoreError) -> [Bool] {
        var result = Array(repeating: false, count: max(0, buckets))
        guard buckets > 0, !labels.isEmpty else { return result }
        try locked { () throws(SessionStoreError) in
            if try file.hasIndex(named: SessionSchema.labelIndexName) && labels.count <= Self.mapSeekLabels {
                let statement = try file.database.prepare(
                    "SELECT min(idx) FROM events WHERE coalesce(label, kind) = ?3 AND idx BETWEEN ?1 AND ?2")
                for label in labels.sorted() {
                    var start = range.lowerBound
                    while start <= range.upperBound {
                        statement.bind(start, at: 1)
                        statement.bind(range.upperBound, at: 2)
                        statement.bind(label, at: 3)
                        defer { statement.reset() }
                        guard try statement.step(), let found = statement.optionalInt64(at: 0) else { break }
                        let bucket = SessionMap.bucket(of: found, in: range, buckets: buckets)
                        result[bucket] = true
                        // Skip the buckets already known to hold a match (of this label or an earlier one).
                        var next = bucket + 1
                        while next < buckets && result[next] { next += 1 }
                        start = SessionMap.firstIndex(ofBucket: next, in: range, buckets: buckets)
                    }
                }
                return
            }
            let statement = try file.database.prepare("""
                SELECT DISTINCT CAST(CAST(idx - ?1 AS REAL) * ?3 / ?4 AS INTEGER) FROM events
                WHERE idx BETWEEN ?1 AND ?2 AND coalesce(label, kind) IN (SELECT value FROM json_each(?5))
                """)
            defer { statement.reset() }
            statement.bind(range.lowerBound, at: 1)
            statement.bind(range.upperBound, at: 2)
            statement.bind(Double(buckets), at: 3)
            statement.bind(Double(range.upperBound) - Double(range.lowerBound) + 1, at: 4)
            statement.bind(JSONValue.array(labels.sorted().map { .string($0) }).serialized(), at: 5)
            while try statement.step() {
                result[min(max(0, Int(statement.int64(at: 0))), buckets - 1)] = true
            }
        }
        return result
    }
}
