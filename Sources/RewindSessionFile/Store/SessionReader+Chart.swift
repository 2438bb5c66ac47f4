/// A session over time (the timeline's charts, issue 33): what the events of each of N equal slices of a range cost,
/// from SQL aggregates over the primary key's ranges and a seek per slice in the keyframes' index, never by reading
/// rows into Swift.
extension SessionReader {
    /// What the events of each of `buckets` equal slices of `range` (every branch; sliced as ``sessionMap(buckets:in:)``
    /// slices) cost: rows, actions, first and last time, reducer times (total, slowest, how many) and patch bytes
    /// (total, largest, how many), each slice from one aggregate query over its stretch of the primary key (SQLite
    /// adds them up; nothing per row reaches Swift: together one pass over the range's rows, about 0.2–0.4 s for
    /// 1,000,000 events); and the state's size at each slice's end: the main line's last keyframe at or before it,
    /// found by one seek in the keyframes' index per slice, its length read once per distinct keyframe.
    ///
    /// `slices` (nil: all of them) are the slices computed; the others stay empty, so that a caller can compute a
    /// long session's chart a few slices at a time and show it as it goes. `stop` is asked between slices; when it
    /// says true, the slices not yet computed stay empty and the chart is returned as it is (the caller, which asked
    /// to stop, throws it away). May be called from any thread; takes the reader's lock one slice at a time, so that
    /// other calls go on meanwhile (long work is better on a reader of its own).
    package func sessionChart(
        buckets: Int, in range: ClosedRange<Int64>, slices: Range<Int>? = nil, stop: () -> Bool = { false }
    ) throws(SessionStoreError) -> SessionChart {
        var chart = SessionChart(range: range, buckets: buckets)
        guard buckets > 0 else { return chart }
        let slices = (slices ?? 0..<buckets).clamped(to: 0..<buckets)
        var keyframeBytes: [Int64: Int64] = [:]
        for bucket in slices {
            if stop() { return chart }
            let first = chart.firstIndex(ofBucket: bucket)
            let last = min(chart.firstIndex(ofBucket: bucket + 1) - 1, range.upperBound)
            guard first <= last else { continue }
            chart.buckets[bucket] = try locked { () throws(SessionStoreError) -> SessionChart.Bucket in
                var slice = SessionChart.Bucket()
                let events = try file.database.prepare("""
                    SELECT count(*), total(kind = 'action'), min(time), max(time), total(reducer_us), max(reducer_us),
                    count(reducer_us), total(length(CAST(patch AS BLOB))), max(length(CAST(patch AS BLOB))), count(patch)
                    FROM events WHERE idx BETWEEN ?1 AND ?2
                    """)
                defer { events.reset() }
                events.bind(first, at: 1)
                events.bind(last, at: 2)
                if try events.step() {
                    slice.events = events.int64(at: 0)
                    slice.actions = Int64(events.optionalDouble(at: 1) ?? 0)
                    slice.firstTime = events.optionalDouble(at: 2)
                    slice.lastTime = events.optionalDouble(at: 3)
                    slice.reducerMicrosTotal = events.optionalDouble(at: 4) ?? 0
                    slice.reducerMicrosMax = events.optionalDouble(at: 5)
                    slice.timedEvents = events.int64(at: 6)
                    slice.patchBytesTotal = Int64(events.optionalDouble(at: 7) ?? 0)
                    slice.patchBytesMax = events.optionalInt64(at: 8) ?? 0
                    slice.patchedEvents = events.int64(at: 9)
                }
                // The keyframe (branch, idx) primary key's index answers the seek without touching the states.
                let keyframe = try file.database.prepare(
                    "SELECT idx FROM keyframes WHERE branch = 0 AND idx <= ?1 ORDER BY idx DESC LIMIT 1")
                defer { keyframe.reset() }
                keyframe.bind(last, at: 1)
                if try keyframe.step() {
                    let index = keyframe.int64(at: 0)
                    if keyframeBytes[index] == nil {
                        let length = try file.database.prepare(
                            "SELECT length(CAST(state AS BLOB)) FROM keyframes WHERE branch = 0 AND idx = ?1")
                        defer { length.reset() }
                        length.bind(index, at: 1)
                        keyframeBytes[index] = try length.step() ? length.int64(at: 0) : 0
                    }
                    slice.stateKeyframe = index
                    slice.stateBytes = keyframeBytes[index]
                }
                return slice
            }
        }
        return chart
    }
}
