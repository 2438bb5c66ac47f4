import Foundation
import RewindWire

/// Session statistics (`rewind stats`, the timeline's stats view, `rewind mcp`'s `session_statistics` tool): the cost
/// of each action label, and the events with the largest stored patches and the slowest reducers, all counted in one
/// SQL pass over a range of events.
extension SessionReader {
    /// The cost of the events in `range` (every branch) by label, most frequent first: counts, reducer times (total,
    /// nearest-rank p99, slowest) and patch sizes. One scan of the range's rows, in index order; the reducer times of
    /// each label are kept for its percentile (8 bytes per timed event). May be called from any thread.
    package func labelStatistics(in range: ClosedRange<Int64>) throws(SessionStoreError) -> [LabelStatistics] {
        try labelTallies(in: range, rankingLimit: 0).statistics()
    }

    /// The labels' costs and the `rankingLimit` slowest reducers and largest patches of single events in `range`
    /// (every branch): one scan of the range's rows. May be called from any thread.
    package func sessionStatistics(in range: ClosedRange<Int64>, rankingLimit: Int) throws(SessionStoreError)
        -> SessionStatistics {
        try labelTallies(in: range, rankingLimit: rankingLimit).summary()
    }

    /// What ``sessionStatistics(in:rankingLimit:)`` counts, before it is summed up: tallies of several ranges (read
    /// by several readers at once) merge (``LabelStatistics/Builder/merge(_:)``) into those of their union.
    package func labelTallies(in range: ClosedRange<Int64>, rankingLimit: Int = SessionStatistics.rankingLimit)
        throws(SessionStoreError) -> LabelStatistics.Builder {
        try locked { () throws(SessionStoreError) -> LabelStatistics.Builder in
            let statement = try file.database.prepare(
                "SELECT idx, coalesce(label, kind), reducer_us, length(CAST(patch AS BLOB)), branch FROM events "
                    + "WHERE idx BETWEEN ?1 AND ?2 ORDER BY idx")
            defer { statement.reset() }
            statement.bind(range.lowerBound, at: 1)
            statement.bind(range.upperBound, at: 2)
            var builder = LabelStatistics.Builder(rankingLimit: rankingLimit)
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
                builder.add(index: statement.int64(at: 0), branch: statement.int64(at: 4), label: label,
                            reducerMicros: statement.optionalDouble(at: 2), patchBytes: statement.optionalInt64(at: 3) ?? 0)
            }
            return builder
        }
    }
}
