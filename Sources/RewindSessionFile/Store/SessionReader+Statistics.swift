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
        let tallies = try locked { () throws(SessionStoreError) -> [String: Tally] in
            let statement = try file.database.prepare(
                "SELECT idx, coalesce(label, kind), reducer_us, length(CAST(patch AS BLOB)) FROM events "
                    + "WHERE idx BETWEEN ?1 AND ?2 ORDER BY idx")
            defer { statement.reset() }
            statement.bind(range.lowerBound, at: 1)
            statement.bind(range.upperBound, at: 2)
            var tallies: [String: Tally] = [:]
            while try statement.step() {
                let index = statement.int64(at: 0)
                let label = statement.string(at: 1) ?? ""
                let patchBytes = statement.optionalInt64(at: 3) ?? 0
                let micros = statement.optionalDouble(at: 2).flatMap { $0.isFinite ? $0 : nil }
                Self.add(to: &tallies[label, default: Tally(first: index)], micros: micros, patchBytes: patchBytes)
            }
            return tallies
        }
        let statistics = tallies.map { label, tally in
            let times = tally.times.sorted()
            // Nearest rank: the smallest time with at least 99 % of the times at or below it.
            let p99 = times.isEmpty ? nil : times[max(0, Int((0.99 * Double(times.count)).rounded(.up)) - 1)]
            return LabelStatistics(label: label, firstIndex: tally.first, count: tally.count,
                                   timedCount: Int64(times.count), reducerTotalMicros: tally.total,
                                   reducerP99Micros: p99, reducerMaxMicros: times.last,
                                   patchBytesTotal: tally.patchTotal, patchBytesMax: tally.patchMax)
        }
        return LabelStatistics.Order.count.sorted(statistics)
    }

    /// One label's events so far, while ``labelStatistics(in:)`` scans.
    private struct Tally {
        var first: Int64
        var count: Int64 = 0
        var times: [Double] = []
        var total = 0.0
        var patchTotal: Int64 = 0
        var patchMax: Int64 = 0
    }

    /// Counts one event into `tally`.
    private static func add(to tally: inout Tally, micros: Double?, patchBytes: Int64) {
        tally.count += 1
        if let micros {
            tally.times.append(micros)
            tally.total += micros
        }
        tally.patchTotal += patchBytes
        tally.patchMax = max(tally.patchMax, patchBytes)
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
