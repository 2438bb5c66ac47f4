import RewindSessionFile
import RewindWire

/// One computation of a value plot, as the plot thread runs it: the request, and the history's events (newest first)
/// — all of them, or the newest ones when `complete` is false (the job then reads the rest). Kept out of the model,
/// whose copies stay small however long the history. Threading: a plain value; `answer` runs on the plot thread.
struct HistoryPlotJob: Sendable {
    /// What the model asked.
    let request: HistoryPlotState.Request
    /// The events that changed the value, newest first (`StateHistoryCursor.events`).
    let events: [Int]
    /// Whether `events` holds every change (`StateHistoryCursor.complete`).
    let complete: Bool

    /// Reads every change when `events` holds only the newest (the history reader, seconds for half a million
    /// changes), the value after each column's change through `dataSource` (from the session file's keyframes and
    /// patches, for a session file: one state per column), and places the changes along the session; stops with
    /// `TimelineSearchProgress.Cancelled` once `progress` is cancelled (between its reads). Plot thread only.
    func answer(from dataSource: any TimelineDataSource, progress: TimelineSearchProgress) throws
        -> HistoryPlotState.Answer {
        let pointer = (try? JSONPointer(request.path)) ?? .root
        var events = self.events
        var read: [Int]?
        if !complete {
            events = try dataSource.history(session: request.session, pointer: pointer, through: request.through,
                                            limit: nil)
            read = events
            try progress.check()
        }
        let range = 0...Int64(max(0, request.through))
        let buckets = min(max(0, request.width), request.through + 1)
        var strip = Array(repeating: false, count: max(0, buckets))
        for (offset, event) in events.enumerated() {
            if offset % 65_536 == 0 { try progress.check() }
            if buckets > 0 { strip[SessionMap.bucket(of: Int64(event), in: range, buckets: buckets)] = true }
        }
        let sampled = HistoryPlotColumns(changeCount: events.count, width: request.width).sampledEvents(events)
        let values = try dataSource.values(session: request.session, pointers: [pointer], after: sampled,
                                           progress: progress)
        return HistoryPlotState.Answer(values: values.map { $0.first ?? .unknown }, strip: strip, events: read)
    }
}
