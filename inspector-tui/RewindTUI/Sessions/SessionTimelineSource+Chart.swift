import RewindSessionFile

extension SessionTimelineSource {
    /// The session over time from the file (`SessionReader.sessionChart`: an aggregate query per slice and a seek
    /// per slice in the keyframes' index), through a reader of its own so that the UI's reads go on meanwhile.
    /// Called on the chart thread; stops between slices once `progress` is cancelled.
    package func sessionChart(
        session: String, count: Int, buckets: Int, slices: Range<Int>, progress: TimelineSearchProgress
    ) throws -> SessionChart {
        try progress.check()
        let chart = try separateReader(session).sessionChart(buckets: buckets, in: 0...Int64(max(0, count)),
                                                             slices: slices) { progress.isCancelled }
        try progress.check()
        return chart
    }
}
