import Foundation
import RewindSessionFile
import RewindWire

/// Where the timeline's data comes from: implemented by the daemon glue (live sessions) and by the saved-session
/// viewer; `InMemoryTimelineDataSource` is a complete in-memory implementation.
///
/// Laziness: the UI only asks for what is on screen — a few dozen rows per frame via `events(session:range:)`,
/// the selected event's detail, and the state at the selected event. Nothing requires loading a whole session.
///
/// Threading: every method is called on the UI thread (the one running `TimelineApp.run()`), up to ~30 times a
/// second — except the searches (`firstEvent(session:matching:in:forward:progress:)`, `visibleEvents`), which run
/// on the timeline's search and row-filter threads, at the same time as the UI thread's calls — while the
/// implementation's own threads (network, recording) keep adding events. Implementations must therefore be
/// thread-safe, and fast: never block on the recording's locks for long, and never do network I/O here.
package protocol TimelineDataSource: AnyObject, Sendable {
    /// A number that changes whenever something visible may have changed (new events or sessions, header
    /// stats). The UI polls it every few milliseconds and repaints (at most ~30 times a second) when it moves.
    var changeCounter: UInt64 { get }

    /// The header facts: address, connected apps, recording, events/s samples.
    func header() -> TimelineHeader

    /// The data directory the sessions are read from, where the timeline writes what the user copies (`y`);
    /// nil for sources without one (the temporary directory is used then).
    var dataDirectory: URL? { get }

    /// Live and saved sessions, in the order the sessions pane lists them (newest first is usual).
    func sessions() -> [TimelineSession]

    /// Whether this timeline may delete saved sessions (`x` / Delete in the sessions pane): true only where it
    /// reads a data directory on this machine and lists all of it (the timeline of `rewind`, whose daemon owns the
    /// directory), never for `rewind open` (one session, possibly recorded by another process) or a viewer
    /// attached to another rewind. Default: false.
    var deletesSessions: Bool { get }

    /// Deletes saved session `session` (its file and the `-wal`/`-shm` files beside it) and returns the sentence
    /// for the status line ("deleted session …"); throws an error whose description says why it was not deleted
    /// (being recorded, already gone, not permitted). Never deletes a live session. Called on the UI thread, only
    /// when `deletesSessions` is true; the next `sessions()` no longer lists it. Default: throws
    /// `SessionDeletionRefused`.
    func deleteSession(_ session: String) throws -> String

    /// The rows whose indices lie in `range` (clamped by the caller to `1...eventCount`), in index order, each
    /// whole (its action and patch included). Indices without a row may be left out.
    func events(session: String, range: ClosedRange<Int>) throws -> [TimelineEvent]

    /// The row of event `index` (the selected one, whose Action and Diff tabs show its action and patch); throws
    /// when the session has no such event.
    func event(session: String, index: Int) throws -> TimelineEvent

    /// The full state after event `index` (0 = the initial state), on the event's own branch: for a row of a
    /// recomputed branch, that branch's state, never the main line's. For an event whose `stateUnknown` is true
    /// the value is only what the recording holds (the state before the unknown stretch); the timeline shows
    /// "state unknown" instead.
    func state(session: String, index: Int) throws -> JSONValue

    /// The state of event `index`'s own branch just before it (what its patch applies to), or nil when its
    /// branch has no state before it (the first row of a recomputed branch). The default reads
    /// `state(session:index: index - 1)`, right only for sources without branches.
    func stateBefore(session: String, index: Int) throws -> JSONValue?

    /// The first event, starting at `index` itself and going forward (or backward), whose label matches
    /// `filter`, looking at no more than `limit` events; nil when none does. The default implementation reads
    /// rows in chunks through `events(session:range:)`; stores with an index on labels can do better.
    func firstEvent(
        session: String, matching filter: TimelineLabelFilter, from index: Int, forward: Bool, limit: Int
    ) throws -> Int?

    /// The first event of `range` (the lowest index going forward, the highest going backward) that `query`
    /// matches, or nil. Called on the search thread, never the UI thread: it may take long, and must report its
    /// progress to `progress` and stop with `TimelineSearchProgress.Cancelled` soon after `progress` is cancelled.
    /// The default implementation (`TimelineDataSource+Search.swift`) reads rows, details and states in chunks;
    /// session files do better with their label index and SQL.
    func firstEvent(
        session: String, matching query: TimelineSearchQuery, in range: ClosedRange<Int>, forward: Bool,
        progress: TimelineSearchProgress
    ) throws -> Int?

    /// The indices in `range` of the rows `filter` shows (its label filter and hidden kinds; its rows are
    /// ignored), in order. Called on the row-filter thread, never the UI thread; reports to `progress` and stops
    /// with `TimelineSearchProgress.Cancelled` once it is cancelled. Default: `TimelineDataSource+Search.swift`.
    func visibleEvents(
        session: String, filter: TimelineRowFilter, in range: ClosedRange<Int>, progress: TimelineSearchProgress
    ) throws -> [Int]

    /// The first event (1…`count`) whose time is at or after `time` (unix seconds), or `count` when every event is
    /// earlier, or 0 when `count` is 0. Times are taken to grow with the index (they do, except for the rows an app
    /// dispatched before it reconnected, which are a few among many): the default implementation is a binary search
    /// over rows read one at a time through `events(session:range:)` — about 20 reads for 1,000,000 events.
    func firstEvent(session: String, atOrAfter time: Double, count: Int) throws -> Int

    /// The events of event `index`'s lineage (its own branch, and the main line before a recomputed branch) up to
    /// `index` that changed the value at `pointer`, newest first, at most `limit` of them (nil: all)
    /// (`SessionReader.history`). The timeline reads the newest few on the UI thread (`b`) and the whole list, which
    /// may take seconds for half a million changes, on the plot thread. The default compares each event's state with
    /// the one before it: right, but reads every state (for small in-memory sources).
    func history(session: String, pointer: JSONPointer, through index: Int, limit: Int?) throws -> [Int]

    /// The values at `pointers` in the state after each event of `indices` (0: the initial state), each on its own
    /// branch, in the order of `indices`: one array per index, one value per pointer (`unknown` where the state after
    /// the event is not recorded). What the pinned watches show beside the rows and the value plot draws. Called on
    /// the pinned-values and plot threads, never the UI thread; stops with `TimelineSearchProgress.Cancelled` soon
    /// after `progress` is cancelled. Default: `TimelineDataSource+Values.swift`.
    func values(
        session: String, pointers: [JSONPointer], after indices: [Int], progress: TimelineSearchProgress
    ) throws -> [[RecordedValue]]

    /// What each label of events 1…`count` cost — count, reducer times, patch bytes — most frequent first, and the
    /// single slowest reducers and largest patches (the stats view, `S`). Called on the stats thread, never the UI
    /// thread: it may take long; reports to `progress` and stops with `TimelineSearchProgress.Cancelled` once it is
    /// cancelled. The default reads rows in chunks through `events(session:range:)`; session files answer with SQL
    /// scans.
    func sessionStatistics(session: String, count: Int, progress: TimelineSearchProgress) throws -> SessionStatistics

    /// The session map (issue 33): events 0…`count` (0, the initial state, so that the map lines up with the rows)
    /// cut into `buckets` equal slices, and what occurs in each — errors, dropped rows and unknown states, jumps,
    /// replays, skips, branches, reconnects — without ``SessionMap/Marks/match``. Called on the map thread, never
    /// the UI thread; stops with `TimelineSearchProgress.Cancelled` once `progress` is cancelled (between reads).
    /// The default reads rows in chunks through `events(session:range:)`; session files answer from their indexes
    /// and one narrow SQL pass (`SessionReader.sessionMap`). Default: `TimelineDataSource+Map.swift`.
    func sessionMap(session: String, count: Int, buckets: Int, progress: TimelineSearchProgress) throws -> SessionMap

    /// For each of the same `buckets` slices of events 0…`count`, whether an event in it shows a label `filter`
    /// matches (the map's search marks). Called on the map thread; as ``sessionMap(session:count:buckets:progress:)``.
    func matchBuckets(
        session: String, filter: TimelineLabelFilter, count: Int, buckets: Int, progress: TimelineSearchProgress
    ) throws -> [Bool]

    /// The session over time (the charts under the rows, `C`): events 0…`count` cut into `buckets` equal slices (as
    /// the map cuts them), and what the events of each of `slices` cost — rows, actions, times, reducer times, patch
    /// bytes — and the state's size at its end (the other slices empty: the chart thread asks for a long session's
    /// slices a few at a time, to show them as they come). Called on the chart thread, never the UI thread; stops
    /// with `TimelineSearchProgress.Cancelled` once `progress` is cancelled (between reads). The default reads rows
    /// in chunks through `events(session:range:)`; session files answer with SQL aggregates
    /// (`SessionReader.sessionChart`). Default: `TimelineDataSource+Chart.swift`.
    func sessionChart(session: String, count: Int, buckets: Int, slices: Range<Int>, progress: TimelineSearchProgress)
        throws -> SessionChart
}

extension TimelineDataSource {
    /// No data directory.
    package var dataDirectory: URL? { nil }

    /// Deletes nothing.
    package var deletesSessions: Bool { false }

    /// Refuses: this source deletes no session.
    package func deleteSession(_ session: String) throws -> String {
        throw SessionDeletionRefused.notDeletedHere(session)
    }

    /// The state after event `index - 1` (for sources whose rows are all on one branch).
    package func stateBefore(session: String, index: Int) throws -> JSONValue? {
        guard index > 0 else { return nil }
        return try state(session: session, index: index - 1)
    }

    /// Binary search over single rows (see the requirement).
    package func firstEvent(session: String, atOrAfter time: Double, count: Int) throws -> Int {
        guard count > 0 else { return 0 }
        var low = 1
        var high = count
        // Invariant: every index below `low` is earlier than `time`; `high` is a candidate (or the last event).
        while low < high {
            let middle = low + (high - low) / 2
            // Read a few rows in case an index has none (sources may leave indices out).
            let probe = try events(session: session, range: middle...min(high, middle + 7)).first
            if let probe, probe.time >= time {
                high = middle
            } else {
                low = min(high, (probe?.index ?? middle) + 1)
            }
        }
        return low
    }

    /// Reads rows in chunks of 1,000 through `events(session:range:)` (a row's label, reducer time and patch: its
    /// bytes as compact JSON, as a file stores it).
    package func sessionStatistics(session: String, count: Int, progress: TimelineSearchProgress) throws
        -> SessionStatistics {
        var builder = LabelStatistics.Builder()
        var position = 1
        while position <= count {
            progress.report(searched: position - 1, of: count)
            try progress.check()
            let last = min(count, position + 999)
            for event in try events(session: session, range: position...last) {
                builder.add(index: Int64(event.index), branch: Int64(event.branch), label: event.displayLabel,
                            reducerMicros: event.reducerMicros,
                            patchBytes: Int64(event.patch?.json.serialized().utf8.count ?? 0))
            }
            position = last + 1
        }
        return builder.summary()
    }

    /// Compares the value at `pointer` after each event with the one before it, from `index` back to 1 (or until
    /// `limit` changes are found).
    package func history(session: String, pointer: JSONPointer, through index: Int, limit: Int?) throws -> [Int] {
        guard index > 0 else { return [] }
        var result: [Int] = []
        var after = try state(session: session, index: index)[pointer]
        for event in stride(from: index, through: 1, by: -1) {
            if let limit, result.count >= limit { break }
            let before = try state(session: session, index: event - 1)[pointer]
            if before != after { result.append(event) }
            after = before
        }
        return result
    }

    /// Scans rows in chunks of 1,000 through `events(session:range:)`.
    package func firstEvent(
        session: String, matching filter: TimelineLabelFilter, from index: Int, forward: Bool, limit: Int
    ) throws -> Int? {
        guard let count = sessions().first(where: { $0.id == session })?.eventCount, count > 0 else { return nil }
        let chunk = 1_000
        var position = min(max(index, 1), count)
        var remaining = limit
        while remaining > 0 && position >= 1 && position <= count {
            let size = min(chunk, remaining)
            let range = forward ? position...min(count, position + size - 1) : max(1, position - size + 1)...position
            let rows = try events(session: session, range: range)
            if forward {
                if let match = rows.first(where: filter.matches) { return match.index }
                position = range.upperBound + 1
            } else {
                if let match = rows.last(where: filter.matches) { return match.index }
                position = range.lowerBound - 1
            }
            remaining -= range.count
        }
        return nil
    }
}
