import RewindSessionFile
import RewindWire

/// One computation of a value plot, as the plot thread runs it: the request, and the history's events (newest first)
/// that the strip of changes places along the session. Kept out of the model, whose copies stay small however long
/// the history. Threading: a plain value; `answer` runs on the plot thread.
struct HistoryPlotJob: Sendable {
    /// What the model asked.
    let request: HistoryPlotState.Request
    /// The events that changed the value, newest first (`StateHistoryCursor.events`).
    let events: [Int]

    /// Reads the value after each sampled event through `dataSource` (from the session file's keyframes and patches,
    /// for a session file) and places the changes along the session; stops with `TimelineSearchProgress.Cancelled`
    /// once `progress` is cancelled. Plot thread only: it may take a second on a 1,000,000-event session.
    func answer(from dataSource: any TimelineDataSource, progress: TimelineSearchProgress) throws
        -> HistoryPlotState.Answer {
        let range = 0...Int64(max(0, request.through))
        let buckets = min(max(0, request.width), request.through + 1)
        var strip = Array(repeating: false, count: max(0, buckets))
        for (offset, event) in events.enumerated() {
            if offset % 65_536 == 0 { try progress.check() }
            if buckets > 0 { strip[SessionMap.bucket(of: Int64(event), in: range, buckets: buckets)] = true }
        }
        let pointer = (try? JSONPointer(request.path)) ?? .root
        let values = try dataSource.values(session: request.session, pointers: [pointer],
                                           after: request.sampledEvents, progress: progress)
        return HistoryPlotState.Answer(values: values.map { $0.first ?? .unknown }, strip: strip)
    }
}
