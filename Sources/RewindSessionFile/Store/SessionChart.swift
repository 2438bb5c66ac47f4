/// A session over time (the timeline's charts, issue 33): a range of event indices cut into equal slices (buckets, as
/// ``SessionMap`` cuts them), and for each what its events cost — how many there are and how many are actions, when
/// the first and last of them were recorded, their reducer times and patch bytes — and how large the recorded state
/// is at the slice's end. The timeline draws one of these quantities as a chart under its rows.
///
/// Threading: a plain value; `Sendable`.
package struct SessionChart: Sendable, Hashable {
    /// What the events of one slice cost. Quantities of events (counts, times, bytes) cover every branch, as the map
    /// does; the state size is the main line's.
    package struct Bucket: Sendable, Hashable {
        /// Rows in the slice (every kind).
        package var events: Int64 = 0
        /// `action` rows in the slice.
        package var actions: Int64 = 0
        /// The earliest recorded time of a row in the slice (unix seconds); nil when it has none.
        package var firstTime: Double?
        /// The latest recorded time of a row in the slice (unix seconds); nil when it has none.
        package var lastTime: Double?
        /// The reducer times of the slice's rows, added up (microseconds).
        package var reducerMicrosTotal: Double = 0
        /// The slowest reducer of the slice (microseconds); nil when no row has a reducer time.
        package var reducerMicrosMax: Double?
        /// How many rows have a reducer time.
        package var timedEvents: Int64 = 0
        /// The bytes of the slice's stored patches (their JSON text), added up.
        package var patchBytesTotal: Int64 = 0
        /// The bytes of the slice's largest stored patch (0 when none has one).
        package var patchBytesMax: Int64 = 0
        /// How many rows have a stored patch.
        package var patchedEvents: Int64 = 0
        /// The bytes (JSON text) of the main line's last recorded full state (keyframe) at or before the slice's last
        /// event: the state's size there, as of its last keyframe (one is written at least every 1,000 events, and
        /// for every full state the app sends). Nil when no keyframe lies at or before the slice.
        package var stateBytes: Int64?
        /// The index of that keyframe (nil with `stateBytes`).
        package var stateKeyframe: Int64?

        /// An empty slice.
        package init() {}

        /// Takes in `other`, a slice that follows this one: counts and totals add up, maxima are the larger, times
        /// span both, and the state is the later one's (this one's when the other knows none).
        package mutating func merge(_ other: Bucket) {
            events += other.events
            actions += other.actions
            firstTime = [firstTime, other.firstTime].compactMap { $0 }.min()
            lastTime = [lastTime, other.lastTime].compactMap { $0 }.max()
            reducerMicrosTotal += other.reducerMicrosTotal
            reducerMicrosMax = [reducerMicrosMax, other.reducerMicrosMax].compactMap { $0 }.max()
            timedEvents += other.timedEvents
            patchBytesTotal += other.patchBytesTotal
            patchBytesMax = max(patchBytesMax, other.patchBytesMax)
            patchedEvents += other.patchedEvents
            if other.stateBytes != nil {
                stateBytes = other.stateBytes
                stateKeyframe = other.stateKeyframe
            }
        }
    }

    /// The event indices charted.
    package var range: ClosedRange<Int64>
    /// Each slice, first to last (as many as asked for).
    package var buckets: [Bucket]

    /// A chart of `range` in `buckets` slices, empty.
    package init(range: ClosedRange<Int64>, buckets: Int) {
        self.range = range
        self.buckets = Array(repeating: Bucket(), count: max(0, buckets))
    }

    /// The slice of event `index` (clamped into the range; ``SessionMap/bucket(of:in:buckets:)``).
    package func bucket(of index: Int64) -> Int {
        SessionMap.bucket(of: index, in: range, buckets: buckets.count)
    }

    /// The first event index of slice `bucket` (``SessionMap/firstIndex(ofBucket:in:buckets:)``).
    package func firstIndex(ofBucket bucket: Int) -> Int64 {
        SessionMap.firstIndex(ofBucket: bucket, in: range, buckets: buckets.count)
    }
}
