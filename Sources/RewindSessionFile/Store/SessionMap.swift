/// A session at a glance: a range of event indices cut into equal slices (buckets), and for each what occurs in it —
/// errors, dropped rows and states not recorded, jumps, replays, skips, recomputed branches, reconnects, and the
/// events whose label a search matches. The timeline draws it as a strip beside its rows (issue 33).
///
/// Threading: a plain value; `Sendable`.
package struct SessionMap: Sendable, Hashable {
    /// What occurs in one bucket.
    package struct Marks: OptionSet, Sendable, Hashable {
        package let rawValue: UInt16

        package init(rawValue: UInt16) {
            self.rawValue = rawValue
        }

        /// An `error` row.
        package static let error = Marks(rawValue: 1 << 0)
        /// A `dropped` row: the app's outbox coalesced, or actions were lost.
        package static let dropped = Marks(rawValue: 1 << 1)
        /// An event whose state the recording does not hold (inside a stretch of unknown state, ``UnknownState``).
        package static let unknown = Marks(rawValue: 1 << 2)
        /// A `jump` row.
        package static let jump = Marks(rawValue: 1 << 3)
        /// A `replay` row.
        package static let replay = Marks(rawValue: 1 << 4)
        /// A `skip` row (a skip or un-skip toggle).
        package static let skip = Marks(rawValue: 1 << 5)
        /// A row of a recomputed branch (branch ≠ 0).
        package static let branch = Marks(rawValue: 1 << 6)
        /// A `reconnect` row.
        package static let reconnect = Marks(rawValue: 1 << 7)
        /// An event whose shown label is one the search matches.
        package static let match = Marks(rawValue: 1 << 8)

        /// The mark of a row of `kind` (none for actions, snapshots, dispatches and notes).
        package static func of(_ kind: EventKind) -> Marks {
            switch kind {
            case .error: return .error
            case .dropped: return .dropped
            case .jump: return .jump
            case .replay: return .replay
            case .skip: return .skip
            case .reconnect: return .reconnect
            case .action, .snapshot, .dispatch, .note: return []
            }
        }
    }

    /// The event indices mapped.
    package var range: ClosedRange<Int64>
    /// What occurs in each bucket, first to last (as many as asked for).
    package var buckets: [Marks]

    /// A map of `range` cut into `buckets` buckets, empty.
    package init(range: ClosedRange<Int64>, buckets: Int) {
        self.range = range
        self.buckets = Array(repeating: [], count: max(0, buckets))
    }

    /// The bucket of event `index` (clamped into the map): `(index - lower) × buckets ÷ (upper - lower + 1)`,
    /// computed in `Double` exactly as the readers' SQL computes it (no overflow on indices up to 2^62).
    package static func bucket(of index: Int64, in range: ClosedRange<Int64>, buckets: Int) -> Int {
        guard buckets > 0 else { return 0 }
        let clamped = min(max(index, range.lowerBound), range.upperBound)
        let span = Double(range.upperBound) - Double(range.lowerBound) + 1
        let bucket = Int(Double(clamped - range.lowerBound) * Double(buckets) / span)
        return min(max(0, bucket), buckets - 1)
    }

    /// The bucket of event `index` in this map.
    package func bucket(of index: Int64) -> Int {
        Self.bucket(of: index, in: range, buckets: buckets.count)
    }

    /// The first event index of bucket `bucket` (the range's upper bound past the last bucket).
    package func firstIndex(ofBucket bucket: Int) -> Int64 {
        Self.firstIndex(ofBucket: bucket, in: range, buckets: buckets.count)
    }

    /// The smallest index of `range` whose bucket is `bucket` or later (`range.upperBound + 1` when there is none).
    package static func firstIndex(ofBucket bucket: Int, in range: ClosedRange<Int64>, buckets: Int) -> Int64 {
        guard bucket > 0 else { return range.lowerBound }
        guard bucket < buckets else { return range.upperBound &+ 1 }
        let span = Double(range.upperBound) - Double(range.lowerBound) + 1
        var index = range.lowerBound + Int64((Double(bucket) * span / Double(buckets)).rounded(.down))
        index = min(max(index, range.lowerBound), range.upperBound)
        // The division above and `bucket(of:)` may round apart by one: settle on the exact boundary.
        while index > range.lowerBound && Self.bucket(of: index - 1, in: range, buckets: buckets) >= bucket {
            index -= 1
        }
        while index <= range.upperBound && Self.bucket(of: index, in: range, buckets: buckets) < bucket {
            if index == range.upperBound { return range.upperBound &+ 1 }
            index += 1
        }
        return index
    }

    /// Adds `marks` to every bucket holding an event of `first…last` (clamped to the range).
    package mutating func mark(_ marks: Marks, from first: Int64, through last: Int64) {
        guard !buckets.isEmpty, first <= last, last >= range.lowerBound, first <= range.upperBound else { return }
        for bucket in bucket(of: first)...bucket(of: last) { buckets[bucket].formUnion(marks) }
    }
}
