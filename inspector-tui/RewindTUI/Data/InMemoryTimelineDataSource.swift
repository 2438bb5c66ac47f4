import Foundation
import RewindSessionFile
import RewindWire

/// A complete `TimelineDataSource` held in memory: for tests, demos, and small imported sessions.
///
/// Sessions are listed in the order they were added. Every event keeps its state after it (values share storage,
/// so this is cheap for states derived from each other by patches). Branches follow the session file's rules: a
/// patch applies to the state after the previous event of the same branch. What a row means (its state unknown,
/// dispatched before its connection, the event it recomputes, the actions it lost) is what the caller states with
/// it (``RowMeaning``), as the daemon states it when it writes a session file: this source works nothing out.
///
/// Threading: all methods may be called from any thread; one lock guards everything, held only for copies.
package final class InMemoryTimelineDataSource: TimelineDataSource, @unchecked Sendable {  // all state guarded by `lock`
    private struct Record {
        var session: TimelineSession
        var events: [TimelineEvent] = []
        var states: [JSONValue]
        /// The index of the last event of each branch (0: the initial state of branch 0).
        var lastOnBranch: [Int: Int] = [0: 0]
        /// For each event, the index of the previous event of its branch (nil: none).
        var previousOnBranch: [Int?] = []
    }

    /// Why a call was refused.
    package enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// No session has this id.
        case unknownSession(String)
        /// The session has no event with this index.
        case noSuchEvent(session: String, index: Int)
        /// The patch of an appended event does not apply to the previous state.
        case patchFailed(String)

        /// A readable message.
        package var description: String {
            switch self {
            case .unknownSession(let id): return "unknown session \(id)"
            case .noSuchEvent(let session, let index): return "session \(session) has no event #\(index)"
            case .patchFailed(let reason): return "patch does not apply: \(reason)"
            }
        }
    }

    private let lock = NSLock()
    private var storedHeader: TimelineHeader
    private var order: [String] = []
    private var records: [String: Record] = [:]
    private var counter: UInt64 = 0

    /// Where the timeline writes what the user copies (nil: the temporary directory).
    package let dataDirectory: URL?

    /// Whether `deleteSession(_:)` removes sessions (as the timeline of `rewind` does) or refuses (as `rewind open`).
    package let deletesSessions: Bool

    /// An empty source with the given header (and data directory, for copies); `deletesSessions`: whether the
    /// sessions pane may delete its ended sessions.
    package init(header: TimelineHeader = TimelineHeader(), dataDirectory: URL? = nil, deletesSessions: Bool = false) {
        storedHeader = header
        self.dataDirectory = dataDirectory
        self.deletesSessions = deletesSessions
    }

    // MARK: - Feeding

    /// Replaces the header facts.
    package func setHeader(_ header: TimelineHeader) {
        locked {
            storedHeader = header
            counter &+= 1
        }
    }

    /// Adds a session (listed after the ones already added) starting from `initialState`; `appConnected` (default:
    /// whether it is live) says whether its app takes commands from this timeline; `appCapabilities` (default:
    /// unknown, so every command is offered) what its app offered in `hello`.
    package func addSession(
        id: String, appName: String, instance: String? = nil, startedAt: Double, status: TimelineSessionStatus = .live,
        initialState: JSONValue = .object(JSONObject()), appConnected: Bool? = nil, appCapabilities: [String]? = nil
    ) {
        locked {
            if records[id] == nil { order.append(id) }
            let session = TimelineSession(
                id: id, appName: appName, instance: instance, startedAt: startedAt, eventCount: 0, status: status,
                appConnected: appConnected, appCapabilities: appCapabilities)
            records[id] = Record(session: session, states: [initialState])
            counter &+= 1
        }
    }

    /// Appends an event to a session and returns its index.
    /// - Parameters:
    ///   - stateAfter: the state after the event; when nil, `patch` applied to the state after the previous event
    ///     of the same branch (or that state unchanged, without a patch); a new branch without `stateAfter` starts
    ///     from the main line's latest state.
    ///   - meaning: what the row means, as a session file would state it (default: its state is known and it says
    ///     nothing more). A `skip` row's ``RowMeaning/skip`` marks its event skipped or not.
    /// - Throws: `Failure.unknownSession`, or `Failure.patchFailed` when the patch does not apply.
    @discardableResult
    package func append(
        session id: String, time: Double, kind: EventKind = .action, label: String? = nil,
        action: JSONValue? = nil, patch: JSONPatch? = nil, reducerMicros: Double? = nil, detail: String? = nil,
        appSeq: Int? = nil, branch: Int = 0, stateAfter: JSONValue? = nil, meaning: RowMeaning = RowMeaning()
    ) throws(Failure) -> Int {
        lock.lock()
        defer { lock.unlock() }
        guard var record = records[id] else { throw .unknownSession(id) }
        records[id] = nil  // keep the arrays uniquely referenced while appending
        defer { records[id] = record }
        let previousIndex = record.lastOnBranch[branch]
        let previous = record.states[previousIndex ?? record.lastOnBranch[0] ?? 0]
        var state = previous
        if let stateAfter {
            state = stateAfter
        } else if let patch {
            do {
                state = try patch.apply(to: previous)
            } catch {
                throw .patchFailed(error.description)
            }
        }
        let index = record.events.count + 1
        let recorded = RecordedEvent(
            index: Int64(index), appSeq: appSeq.map(Int64.init), time: time, kind: kind, label: label, action: action,
            patch: patch, reducerMicros: reducerMicros, detail: detail, branch: Int64(branch), meaning: meaning)
        let lastOnMainLine = record.lastOnBranch[0] ?? 0
        let event = TimelineEvent(
            recorded, stateBeforeUnknown: lastOnMainLine > 0 && record.events[lastOnMainLine - 1].stateUnknown)
        if branch == 0, lastOnMainLine > 0, record.events[lastOnMainLine - 1].kind == .dropped,
           record.events[lastOnMainLine - 1].time > time {
            // An app's dropped row carries the time its message arrived; its range began when this action was
            // dispatched (as SessionAnnotations places it).
            record.events[lastOnMainLine - 1].time = time
        }
        if kind == .skip, branch == 0, let mark = meaning.skip, let target = Int(exactly: mark.event),
           target >= 1, target <= record.events.count {
            record.events[target - 1].isSkipped = mark.skipped
        }
        record.events.append(event)
        record.previousOnBranch.append(previousIndex)
        record.lastOnBranch[branch] = index
        record.states.append(state)
        record.session.eventCount = index
        counter &+= 1
        return index
    }

    /// Changes a session's status (e.g. to `.ended` when its app disconnects).
    package func setStatus(session id: String, status: TimelineSessionStatus) {
        locked {
            records[id]?.session.status = status
            records[id]?.session.appConnected = status == .live
            counter &+= 1
        }
    }

    /// Marks an event skipped or not.
    package func setSkipped(session id: String, index: Int, skipped: Bool) {
        locked {
            guard var record = records[id], index >= 1, index <= record.events.count else { return }
            record.events[index - 1].isSkipped = skipped
            records[id] = record
            counter &+= 1
        }
    }

    // MARK: - TimelineDataSource

    /// Forgets an ended session (when `deletesSessions`); refuses a live one, or one that is not (any more) here.
    package func deleteSession(_ session: String) throws -> String {
        guard deletesSessions else { throw SessionDeletionRefused("this timeline does not delete sessions") }
        return try locked { () throws(SessionDeletionRefused) -> String in
            guard let record = records[session] else {
                throw SessionDeletionRefused("session \(session) is gone already: it was deleted elsewhere")
            }
            guard record.session.status != .live else {
                throw SessionDeletionRefused("session \(session) is live: it can be deleted once its app disconnects")
            }
            records[session] = nil
            order.removeAll { $0 == session }
            counter &+= 1
            return "deleted session \(session) (\(record.session.summary))"
        }
    }

    /// Moves on every change.
    package var changeCounter: UInt64 {
        locked { counter }
    }

    /// The header set last.
    package func header() -> TimelineHeader {
        locked { storedHeader }
    }

    /// The sessions in the order added.
    package func sessions() -> [TimelineSession] {
        locked { order.compactMap { records[$0]?.session } }
    }

    /// The rows in `range` that exist.
    package func events(session id: String, range: ClosedRange<Int>) throws -> [TimelineEvent] {
        try locked { () throws(Failure) -> [TimelineEvent] in
            guard let record = records[id] else { throw .unknownSession(id) }
            let lower = max(1, range.lowerBound)
            let upper = min(record.events.count, range.upperBound)
            guard lower <= upper else { return [] }
            return Array(record.events[(lower - 1)...(upper - 1)])
        }
    }

    /// The event's row.
    package func event(session id: String, index: Int) throws -> TimelineEvent {
        try locked { () throws(Failure) -> TimelineEvent in
            guard let record = records[id] else { throw .unknownSession(id) }
            guard index >= 1, index <= record.events.count else { throw .noSuchEvent(session: id, index: index) }
            return record.events[index - 1]
        }
    }

    /// The state after event `index` (0: the initial state).
    package func state(session id: String, index: Int) throws -> JSONValue {
        try locked { () throws(Failure) -> JSONValue in
            guard let record = records[id] else { throw .unknownSession(id) }
            guard index >= 0, index < record.states.count else { throw .noSuchEvent(session: id, index: index) }
            return record.states[index]
        }
    }

    /// The state after the previous event of the event's branch (nil for the first event of a branch N > 0).
    package func stateBefore(session id: String, index: Int) throws -> JSONValue? {
        try locked { () throws(Failure) -> JSONValue? in
            guard let record = records[id] else { throw .unknownSession(id) }
            guard index >= 1, index <= record.events.count else { throw .noSuchEvent(session: id, index: index) }
            return record.previousOnBranch[index - 1].map { record.states[$0] }
        }
    }

    private func locked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
