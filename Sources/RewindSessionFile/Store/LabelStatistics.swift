import RewindWire

/// What a session's events of one label cost: how many there are, their reducer times and their patch sizes. One row
/// of `rewind stats` and of the timeline's stats view (issue 33), computed by ``SessionReader/labelStatistics(in:)``.
///
/// Threading: a plain value; `Sendable`.
package struct LabelStatistics: Sendable, Hashable {
    /// The events' label (an action's label; the kind for rows without one, such as `snapshot`).
    package var label: String
    /// The index of the first event with this label (where "jump to its events" starts).
    package var firstIndex: Int64
    /// How many events have the label.
    package var count: Int64
    /// How many of them carry a reducer time (actions the app timed).
    package var timedCount: Int64
    /// The sum of their reducer times, in microseconds.
    package var reducerTotalMicros: Double
    /// The nearest-rank 99th percentile of their reducer times, in microseconds (nil when none was timed).
    package var reducerP99Micros: Double?
    /// The slowest of their reducer times, in microseconds (nil when none was timed).
    package var reducerMaxMicros: Double?
    /// The sum of their stored patches' sizes, in bytes of JSON text.
    package var patchBytesTotal: Int64
    /// The largest of their stored patches, in bytes of JSON text.
    package var patchBytesMax: Int64

    /// A label's statistics from its parts.
    package init(label: String, firstIndex: Int64, count: Int64, timedCount: Int64, reducerTotalMicros: Double,
                 reducerP99Micros: Double?, reducerMaxMicros: Double?, patchBytesTotal: Int64, patchBytesMax: Int64) {
        self.label = label
        self.firstIndex = firstIndex
        self.count = count
        self.timedCount = timedCount
        self.reducerTotalMicros = reducerTotalMicros
        self.reducerP99Micros = reducerP99Micros
        self.reducerMaxMicros = reducerMaxMicros
        self.patchBytesTotal = patchBytesTotal
        self.patchBytesMax = patchBytesMax
    }

    /// The label as one JSON object, the same wherever it is printed (`rewind stats --json`, `rewind mcp`'s
    /// `session_statistics`): `label`, `count`, `timed`, `reducerTotalMicros`, `reducerP99Micros` and
    /// `reducerMaxMicros` (when timed), `patchBytesTotal`, `patchBytesMax`, `firstEvent`.
    package var json: JSONValue {
        var object: JSONObject = ["label": .string(label), "count": .int(count), "timed": .int(timedCount),
                                  "reducerTotalMicros": .double(reducerTotalMicros)]
        if let reducerP99Micros { object["reducerP99Micros"] = .double(reducerP99Micros) }
        if let reducerMaxMicros { object["reducerMaxMicros"] = .double(reducerMaxMicros) }
        object["patchBytesTotal"] = .int(patchBytesTotal)
        object["patchBytesMax"] = .int(patchBytesMax)
        object["firstEvent"] = .int(firstIndex)
        return .object(object)
    }

    /// Adds events up, one at a time, into the statistics of their labels (``SessionReader/labelStatistics(in:)``
    /// over a file; the timeline over sources without one). Keeps each label's reducer times for its percentile:
    /// 8 bytes per timed event.
    package struct Builder: Sendable {
        private struct Tally: Sendable {
            var first: Int64
            var count: Int64 = 0
            var times: [Double] = []
            var total = 0.0
            var patchTotal: Int64 = 0
            var patchMax: Int64 = 0
        }

        private var slots: [String: Int] = [:]
        private var tallies: [Tally] = []
        private var names: [String] = []
        /// The label of the last event added and its slot: runs of one label skip the table.
        private var last: (label: String, slot: Int)?
        /// The slowest reducers and largest patches seen so far, in ranking order.
        private var slowest: [RankedEvent] = []
        private var largest: [RankedEvent] = []
        /// How many events each ranking keeps.
        package let rankingLimit: Int

        /// No events yet; each ranking of single events will keep `rankingLimit` of them.
        package init(rankingLimit: Int = SessionStatistics.rankingLimit) {
            self.rankingLimit = max(0, rankingLimit)
        }

        /// Counts event `index` of `branch` with `label`, its reducer time (nil or not finite: not timed) and its
        /// patch's size in bytes (0 without a patch).
        package mutating func add(index: Int64, branch: Int64 = 0, label: String, reducerMicros: Double?,
                                  patchBytes: Int64) {
            let slot: Int
            if let last, last.label == label {
                slot = last.slot
            } else if let known = slots[label] {
                slot = known
            } else {
                slot = tallies.count
                slots[label] = slot
                tallies.append(Tally(first: index))
                names.append(label)
            }
            last = (label, slot)
            let micros = reducerMicros.flatMap { $0.isFinite ? $0 : nil }
            Self.add(to: &tallies[slot], index: index, micros: micros, patchBytes: patchBytes)
            if let micros {
                Self.rank(&slowest, limit: rankingLimit, index: index, branch: branch, label: label, measure: micros)
            }
            if patchBytes > 0 {
                Self.rank(&largest, limit: rankingLimit, index: index, branch: branch, label: label,
                          measure: Double(patchBytes))
            }
        }

        /// Puts the event in `ranking` when it ranks among the first `limit`.
        private static func rank(_ ranking: inout [RankedEvent], limit: Int, index: Int64, branch: Int64,
                                 label: String, measure: Double) {
            guard limit > 0 else { return }
            if ranking.count == limit, let worst = ranking.last,
               !RankedEvent.ranks(measure: measure, index: index, before: worst) { return }
            let event = RankedEvent(index: index, branch: branch, label: label, measure: measure)
            let position = ranking.firstIndex { event.ranks(before: $0) } ?? ranking.count
            ranking.insert(event, at: position)
            if ranking.count > limit { ranking.removeLast() }
        }

        private static func add(to tally: inout Tally, index: Int64, micros: Double?, patchBytes: Int64) {
            tally.first = min(tally.first, index)
            tally.count += 1
            if let micros {
                tally.times.append(micros)
                tally.total += micros
            }
            tally.patchTotal += patchBytes
            tally.patchMax = max(tally.patchMax, patchBytes)
        }

        /// Adds what `other` counted (events of another range), as if they had been added here one by one: the
        /// counts, reducer times, patch sizes and rankings are the same (a total may differ in its last bits, summed
        /// in another order).
        package mutating func merge(_ other: Builder) {
            for (label, tally) in zip(other.names, other.tallies) {
                guard let slot = slots[label] else {
                    slots[label] = tallies.count
                    tallies.append(tally)
                    names.append(label)
                    continue
                }
                tallies[slot].first = min(tallies[slot].first, tally.first)
                tallies[slot].count += tally.count
                tallies[slot].times += tally.times
                tallies[slot].total += tally.total
                tallies[slot].patchTotal += tally.patchTotal
                tallies[slot].patchMax = max(tallies[slot].patchMax, tally.patchMax)
            }
            last = nil
            let limit = rankingLimit
            slowest = Array((slowest + other.slowest).sorted { $0.ranks(before: $1) }.prefix(limit))
            largest = Array((largest + other.largest).sorted { $0.ranks(before: $1) }.prefix(limit))
        }

        /// The statistics of every label counted and the events' rankings.
        package func summary() -> SessionStatistics {
            SessionStatistics(labels: statistics(), slowest: slowest, largest: largest)
        }

        /// The statistics of every label counted, most frequent first (ties by label).
        package func statistics() -> [LabelStatistics] {
            Order.count.sorted(zip(names, tallies).map { label, tally in
                let times = tally.times.sorted()
                // Nearest rank: the smallest time with at least 99 % of the times at or below it.
                let p99 = times.isEmpty ? nil : times[max(0, Int((0.99 * Double(times.count)).rounded(.up)) - 1)]
                return LabelStatistics(label: label, firstIndex: tally.first, count: tally.count,
                                       timedCount: Int64(times.count), reducerTotalMicros: tally.total,
                                       reducerP99Micros: p99, reducerMaxMicros: times.last,
                                       patchBytesTotal: tally.patchTotal, patchBytesMax: tally.patchMax)
            })
        }
    }

    /// The orders a table of labels is sorted by, each largest first (count: most frequent first).
    package enum Order: String, Sendable, CaseIterable {
        /// The most frequent labels first.
        case count
        /// The labels whose reducers took the most time in all first.
        case total
        /// The labels with the slowest 99th percentile of reducer time first.
        case p99
        /// The labels whose patches are largest in all first.
        case patch

        /// `statistics` sorted in this order (ties by label).
        package func sorted(_ statistics: [LabelStatistics]) -> [LabelStatistics] {
            statistics.sorted { a, b in
                let (x, y) = (measure(a), measure(b))
                return x != y ? x > y : a.label < b.label
            }
        }

        private func measure(_ statistics: LabelStatistics) -> Double {
            switch self {
            case .count: Double(statistics.count)
            case .total: statistics.reducerTotalMicros
            case .p99: statistics.reducerP99Micros ?? -1
            case .patch: Double(statistics.patchBytesTotal)
            }
        }
    }
}
