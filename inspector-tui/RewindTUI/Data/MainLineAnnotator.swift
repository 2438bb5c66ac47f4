/// Annotates rows appended one by one, in index order, with what `RecordedRowMeaning` says: whether the state
/// after (and before) each row is known, and whether the row was dispatched before its connection started (which
/// event a branch row recomputes and how many actions a row lost are given with the row, never read from its text).
/// Used by sources that see every row in order (the in-memory source).
///
/// A plain value type; not shared between threads.
package struct MainLineAnnotator: Sendable, Hashable {
    private var rangeOpen = false
    private var lastUnknown = false
    private var connectedAt: Double

    /// An annotator for a session whose (first) connection started at `connectedAt` (unix seconds).
    package init(connectedAt: Double) {
        self.connectedAt = connectedAt
    }

    /// Fills `event`'s `stateUnknown`, `stateBeforeUnknown` and `beforeConnect` (and clears `recomputes` on the
    /// main line), and takes the row into account for the rows after it.
    package mutating func annotate(_ event: inout TimelineEvent) {
        event.stateBeforeUnknown = lastUnknown
        guard event.branch == 0 else {
            // A recomputed branch holds the states the app reported: known.
            event.stateUnknown = false
            event.beforeConnect = false
            return
        }
        event.recomputes = nil
        if event.kind == .reconnect { connectedAt = event.time }
        event.beforeConnect = event.time < connectedAt
        if RecordedRowMeaning.restoresState(event.kind) {
            rangeOpen = false
            event.stateUnknown = false
        } else {
            switch RecordedRowMeaning.unknownStart(kind: event.kind, label: event.label) {
            case .afterRow?:
                event.stateUnknown = rangeOpen
                rangeOpen = true
            case .atRow?:
                rangeOpen = true
                event.stateUnknown = true
            case nil:
                event.stateUnknown = rangeOpen
            }
        }
        lastUnknown = event.stateUnknown
    }
}
