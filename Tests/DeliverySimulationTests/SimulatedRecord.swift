@testable import RewindDaemon
@testable import RewindSessionFile
import RewindWebSocket
import RewindWire

/// One session of the simulated daemon: its ingest machine while the run is connected, the rows the machine appended
/// (committed to the "file", or still waiting for the disk), and how the file says it ended. What is committed is the
/// truth: a daemon that crashes loses the rest, and a continued session reads its resume point from it.
///
/// Threading: the simulation's single thread.
final class SimulatedRecord {
    /// The state before the first event (the `hello`'s).
    let initialState: JSONValue
    /// Rows on disk.
    private(set) var committed: [IngestRow] = []
    /// Rows appended and not yet committed.
    private(set) var pending: [IngestRow] = []
    /// The run's machine, nil once the file was finished (a reconnect rebuilds it from the committed rows).
    var ingest: AppIngest?
    /// The connection the session is bound to on the daemon's side.
    var connection: ConnectionID?
    /// True once the file was finished (until a reconnect reopens it).
    var finished = false
    /// How the file says the session ended (`live` while recording).
    var endState = SessionEndState.live
    /// True when the file's `clean` end came from a daemon that stopped (not from the app's goodbye).
    var endedByDaemonStop = false
    /// A finish that waits for a stalled disk: the end state to write once it can.
    var finishWhenWritable: (endState: SessionEndState, byDaemonStop: Bool)?
    /// True while a commit is scheduled.
    var commitScheduled = false
    /// True while the acknowledgment ticker runs.
    var tickScheduled = false

    init(initialState: JSONValue) {
        self.initialState = initialState
    }

    /// Appends a row the machine numbered; the numbering must follow the file's.
    func append(_ row: IngestRow) -> Bool {
        let expected = (pending.last ?? committed.last)?.index ?? 0
        pending.append(row)
        return row.index == expected + 1
    }

    /// Commits every pending row; the index of the last one, if any.
    func commit() -> Int64? {
        guard let last = pending.last else { return nil }
        committed += pending
        pending = []
        return last.index
    }

    /// Loses the rows not committed (a crash, or a final write that failed).
    func losePending() {
        pending = []
    }

    /// What the committed file says, for continuing the session (as `SessionRegistry.resumePoint` reads it).
    var resumePoint: IngestResumePoint {
        let rows = mainLine
        var accounted: UInt64 = 0
        var lost: UInt64 = 0
        for row in rows {
            if let seq = row.event.appSeq { accounted = max(accounted, UInt64(seq)) }
            if let range = Self.lostRange(row) {
                accounted = max(accounted, range.upperBound)
                lost += UInt64(range.count)
            }
        }
        let last = committed.last?.index ?? 0
        return IngestResumePoint(accountedThrough: accounted, state: rows.last?.stateAfter ?? initialState,
                                 unknownState: rows.last?.event.meaning.unknownState, lostActions: lost,
                                 lastIndex: last)
    }

    /// The committed rows of the main line.
    var mainLine: [IngestRow] { committed.filter { $0.event.branch == 0 } }

    /// Whether the file says the state after row `index` is known: what the row's meaning states (schema 2), which
    /// every reader reads. The simulation checks each such state against the app's.
    func knownAfter(index: Int64) -> Bool {
        committed.first { $0.index == index }?.event.meaning.unknownState == nil
    }

    /// The action numbers a `lost` row counts.
    static func lostRange(_ row: IngestRow) -> ClosedRange<UInt64>? {
        guard row.event.kind == .dropped, row.event.label == "lost",
              let from = row.event.action?["from"]?.int64Value, let to = row.event.action?["to"]?.int64Value,
              from >= 1, to >= from else { return nil }
        return UInt64(from)...UInt64(to)
    }
}
