import RewindSessionFile

extension SessionTimelineSource {
    /// The session map from the file (`SessionReader.sessionMap`: one SQL query through the partial indexes of the
    /// rarer rows, or one narrow pass over a file without them), through a reader of its own so that the UI's reads go
    /// on meanwhile. Called on the map thread; the query is not cancelled half-way (7 ms for the benchmark's
    /// 1,000,000 events with 1,915 dropped ranges; about 0.4 s by the narrow pass).
    package func sessionMap(session: String, count: Int, buckets: Int, progress: TimelineSearchProgress) throws
        -> SessionMap {
        try progress.check()
        let map = try separateReader(session).sessionMap(buckets: buckets, in: 0...Int64(max(0, count)))
        try progress.check()
        return map
    }

    /// The buckets holding a label `filter` matches: the distinct labels from the label index (`SessionSearch`), then
    /// a seek per label and bucket (`SessionReader.labelBuckets`). Called on the map thread.
    package func matchBuckets(
        session: String, filter: TimelineLabelFilter, count: Int, buckets: Int, progress: TimelineSearchProgress
    ) throws -> [Bool] {
        guard count > 0 else { return Array(repeating: false, count: max(0, buckets)) }
        try progress.check()
        let labels = Set(try search(session).displayLabels(in: 1...Int64(count)).filter(filter.matches))
        try progress.check()
        return try separateReader(session).labelBuckets(labels, buckets: buckets, in: 0...Int64(count))
    }
}
