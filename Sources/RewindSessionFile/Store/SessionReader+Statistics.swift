import Foundation
import RewindWire

/// Session statistics (`rewind stats`, the timeline's stats view, `rewind mcp`'s `session_statistics` tool): the cost
/// of each action label, and the events with the largest stored patches and the slowest reducers, each found by one
/// SQL pass over a range of events.
extension SessionReader {
    /// One event of a ranking: its index, branch and the measured quantity (a patch's bytes, a reducer's
    /// microseconds).
    package struct RankedEvent: Sendable, Hashable {
        /// The event's index.
        package var index: Int64
        /// The branch it is on (0: the main line).
        package var branch: Int64
        /// The quantity it is ranked by.
        package var measure: Double
    }

    /// The `limit` events in `range` (every branch) whose stored patch is largest, in bytes of its JSON text,
    /// largest first. One scan of the range's rows; may be called from any thread.
    package func largestPatches(in range: ClosedRange<Int64>, limit: Int) throws(SessionStoreError) -> [RankedEvent] {
        try ranked(
            "SELECT idx, branch, length(CAST(patch AS BLOB)) AS m FROM events "
                + "WHERE idx BETWEEN ?1 AND ?2 AND patch IS NOT NULL ORDER BY m DESC, idx LIMIT ?3",
            range: range, limit: limit)
    }

    /// The `limit` events in `range` (every branch) whose reducer took longest, in microseconds as the app measured
    /// them, slowest first. One scan of the range's rows; may be called from any thread.
    package func slowestReducers(in range: ClosedRange<Int64>, limit: Int) throws(SessionStoreError) -> [RankedEvent] {
        try ranked(
            "SELECT idx, branch, reducer_us AS m FROM events "
                + "WHERE idx BETWEEN ?1 AND ?2 AND reducer_us IS NOT NULL ORDER BY m DESC, idx LIMIT ?3",
            range: range, limit: limit)
    }

    /// The cost of the events in `range` (every branch) by label, most frequent first: counts, reducer times (total,
    /// nearest-rank p99, slowest) and patch sizes. One scan of the range's rows, in index order; the reducer times of
    /// each label are kept for its percentile (8 bytes per timed event). May be called from any thread.
    package func labelStatistics(in range: ClosedRange<Int64>) throws(SessionStoreError) -> [LabelStatistics] {
        try labelTallies(in: range).statistics()
    }

    /// What ``labelStatistics(in:)`` counts, before it is summed up: tallies of several ranges (read by several
    /// readers at once) merge (``LabelStatistics/Builder/merge(_:)``) into those of their union.
    package func labelTallies(in range: ClosedRange<Int64>) throws(SessionStoreError) -> LabelStatistics.Builder {
        try locked { () throws(SessionStoreError) -> LabelStatistics.Builder in
            let statement = try file.database.prepare(
                "SELECT idx, coalesce(label, kind), reducer_us, length(CAST(patch AS BLOB)) FROM events "
                    + "WHERE idx BETWEEN ?1 AND ?2 ORDER BY idx")
            defer { statement.reset() }
            statement.bind(range.lowerBound, at: 1)
            statement.bind(range.upperBound, at: 2)
            var builder = LabelStatistics.Builder()
            // Consecutive rows mostly share their label: its text is decoded only when its bytes change.
            var labelBytes: [UInt8] = []
            var label = ""
            while try statement.step() {
                let changed = statement.withBytes(at: 1) { bytes -> Bool in
                    let bytes = bytes ?? UnsafeBufferPointer(start: nil, count: 0)
                    guard !bytes.elementsEqual(labelBytes) else { return false }
                    labelBytes = Array(bytes)
                    return true
                }
                if changed { label = String(decoding: labelBytes, as: UTF8.self) }
                builder.add(index: statement.int64(at: 0), label: label, reducerMicros: statement.optionalDouble(at: 2),
                            patchBytes: statement.optionalInt64(at: 3) ?? 0)
            }
            return builder
        }
    }

    /// Runs a ranking query whose columns are index, branch and measure, with the range and limit bound to ?1–?3.
    private func ranked(_ sql: String, range: ClosedRange<Int64>, limit: Int) throws(SessionStoreError)
        -> [RankedEvent] {
        try locked { () throws(SessionStoreError) -> [RankedEvent] in
            let statement = try file.database.prepare(sql)
            defer { statement.reset() }
            statement.bind(range.lowerBound, at: 1)
            statement.bind(range.upperBound, at: 2)
            statement.bind(Int64(max(0, limit)), at: 3)
            var result: [RankedEvent] = []
            while try statement.step() {
                result.append(RankedEvent(index: statement.int64(at: 0), branch: statement.int64(at: 1),
                                          measure: statement.optionalDouble(at: 2) ?? 0))
            }
            return result
        }
    }
}
