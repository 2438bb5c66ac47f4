import RewindSessionFile

extension TimelineDataSource {
    /// Reads the rows of `slices` in chunks of 1,000 through `events(session:range:)` (each row's kind, time,
    /// reducer time and patch: its bytes as compact JSON, as a file stores it), and the state after each slice's last event through `state(session:index:)` (its compact JSON's
    /// bytes; the slice's `stateKeyframe` is that event). Nothing is charted beyond `rowByRowMapLimit` events. Right
    /// for in-memory sources; session files do better (`SessionTimelineSource+Chart.swift`). Called on the chart
    /// thread.
    package func sessionChart(
        session: String, count: Int, buckets: Int, slices: Range<Int>, progress: TimelineSearchProgress
    ) throws -> SessionChart {
        var chart = SessionChart(range: 0...Int64(max(0, count)), buckets: buckets)
        let slices = slices.clamped(to: 0..<max(0, buckets))
        guard !slices.isEmpty, count <= Self.rowByRowMapLimit else { return chart }
        let end = Int(min(chart.firstIndex(ofBucket: slices.upperBound) - 1, Int64(count)))
        var position = max(1, Int(chart.firstIndex(ofBucket: slices.lowerBound)))
        while position <= end {
            try progress.check()
            progress.report(searched: position - 1, of: count)
            let last = min(end, position + 999)
            for event in try events(session: session, range: position...last) {
                var row = SessionChart.Bucket()
                row.events = 1
                row.actions = event.kind == .action ? 1 : 0
                row.firstTime = event.time
                row.lastTime = event.time
                if let micros = event.reducerMicros {
                    row.reducerMicrosTotal = micros
                    row.reducerMicrosMax = micros
                    row.timedEvents = 1
                }
                if let patch = event.patch {
                    row.patchBytesTotal = Int64(patch.json.compactSize())
                    row.patchBytesMax = row.patchBytesTotal
                    row.patchedEvents = 1
                }
                chart.buckets[chart.bucket(of: Int64(event.index))].merge(row)
            }
            position = last + 1
        }
        for bucket in slices {
            try progress.check()
            let end = min(chart.firstIndex(ofBucket: bucket + 1) - 1, Int64(count))
            guard end >= chart.firstIndex(ofBucket: bucket) else { continue }
            chart.buckets[bucket].stateBytes = Int64(try state(session: session, index: Int(end)).compactSize())
            chart.buckets[bucket].stateKeyframe = end
        }
        return chart
    }
}
