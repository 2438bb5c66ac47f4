import Foundation
import RewindSessionFile
import RewindWire

/// The timeline's data, read lazily from the session files (only the rows on screen), with live status and the
/// events-per-second figure from the daemon running in the same process when there is one (`rewind`, through
/// ``LiveRecording``), or without (`rewind open`).
///
/// Rows of every branch are shown, each with its own branch's state: a skip's recomputed rows read
/// `↳ #K label` (`TimelineEvent.recomputes`, the recorded row's ``RowMeaning/recomputes``).
///
/// Each row is the recorded event as the session file states it (``RecordedEvent``: whether its state is known,
/// whether it was dispatched before its connection, …). What only the rest of the session tells is kept up to date
/// with the rows recorded since the last call (`SessionAnnotations`): the actions skipped now (the main line's
/// `skip` rows, ``RowMeaning/skip``), whether the main line's state before a row is known (the file's stretches of
/// unknown state), and where an app's `dropped` row is placed in time.
///
/// A session's app counts as connected (`TimelineSession.appConnected`) only when it is live in `daemon`, or live
/// and `liveAppsReachable` (`rewind open` attached to the daemon recording it): otherwise a session another
/// daemon records streams its rows in, but takes no commands from this timeline. What a connected app offered
/// (`TimelineSession.appCapabilities`) comes from `daemon`, or from the attached daemon's session listing
/// (`liveAppCapabilities`), so the timeline can say why a jump or dispatch is unavailable.
///
/// Threading: any thread; readers and caches are guarded by a lock. Reading never blocks the daemon's ingest:
/// session files are read through their own read-only connections (WAL snapshots).
package final class SessionTimelineSource: TimelineDataSource, @unchecked Sendable {  // state guarded by `lock`
    private let store: SessionStore
    private let daemon: (any LiveRecording)?
    private let address: String?
    private let only: SessionID?
    private let liveAppsReachable: Bool
    private let liveAppCapabilities: [String]?
    /// Whether the sessions pane may delete saved sessions (see `init`).
    package let deletesSessions: Bool
    private let lock = NSLock()
    private var readers: [String: SessionReader] = [:]
    private var annotations: [String: SessionAnnotations] = [:]
    private var searches: [String: SessionSearch] = [:]
    private var valuesReaders: [String: SessionReader] = [:]
    private var cachedSessions: [TimelineSession] = []
    private var sessionsReadAt = -Double.infinity
    private var rateSamples: [(time: Double, total: UInt64)] = []

    /// A source over `store`; `daemon` adds live status and rates; `only` restricts it to one saved session.
    /// `liveAppsReachable`: the caller reaches the daemon that records the live sessions of `store` by another way
    /// (`rewind open` attached to it over its control connection), so their apps count as connected.
    /// `liveAppCapabilities`: what their app offered, as that daemon listed it (`ControlSessionInfo.capabilities`);
    /// nil when unknown (every command is then offered and the daemon answers).
    /// `deletesSessions`: the sessions pane may delete saved sessions (`deleteSession(_:)`): for the timeline of
    /// `rewind`, whose daemon records into `store`; false (the default) for `rewind open` and attached viewers,
    /// which only view what another process may own.
    package init(store: SessionStore, daemon: (any LiveRecording)?, address: String? = nil, only: SessionID? = nil,
                liveAppsReachable: Bool = false, liveAppCapabilities: [String]? = nil, deletesSessions: Bool = false) {
        self.store = store
        self.deletesSessions = deletesSessions
        self.liveAppCapabilities = liveAppCapabilities
        self.daemon = daemon
        self.address = address
        self.only = only
        self.liveAppsReachable = liveAppsReachable
    }

    /// Grows whenever an event is recorded or a session starts or ends (the timeline repaints then).
    package var changeCounter: UInt64 {
        guard let daemon else { return 0 }
        return daemon.totalRecorded &+ UInt64(daemon.connectedAppCount) << 48
    }

    /// The store's directory.
    package var dataDirectory: URL? { store.directory }

    package func header() -> TimelineHeader {
        guard let daemon else {
            // `rewind open`: the session, and the daemon its commands go through when attached to one.
            let through = liveAppsReachable ? address.map { " · app commands through \($0)" } ?? "" : ""
            return TimelineHeader(caption: only.map { "session \($0)\(through)" })
        }
        let now = Date().timeIntervalSince1970
        let total = daemon.totalRecorded
        lock.lock()
        if rateSamples.last.map({ now - $0.time >= 1 }) ?? true {
            rateSamples.append((now, total))
            if rateSamples.count > 61 { rateSamples.removeFirst(rateSamples.count - 61) }
        }
        let rates = zip(rateSamples, rateSamples.dropFirst()).map { earlier, later in
            Double(later.total &- earlier.total) / max(0.001, later.time - earlier.time)
        }
        lock.unlock()
        return TimelineHeader(
            listeningAddress: address, connectedApps: daemon.connectedAppCount,
            isRecording: true, eventsPerSecond: rates)
    }

    package func sessions() -> [TimelineSession] {
        let now = Date().timeIntervalSince1970
        lock.lock()
        defer { lock.unlock() }
        if now - sessionsReadAt < 1 { return withLiveCounts(cachedSessions) }
        sessionsReadAt = now
        let saved = (try? store.listSessions()) ?? []
        cachedSessions = saved.filter { only == nil || $0.id == only }.map { metadata in
            TimelineSession(
                id: metadata.id.rawValue, appName: metadata.appName, instance: metadata.instance,
                startedAt: metadata.startedAt.timeIntervalSince1970, eventCount: Int(metadata.eventCount),
                status: status(of: metadata), appConnected: liveAppsReachable && metadata.endState == .live,
                appCapabilities: liveAppsReachable && metadata.endState == .live ? liveAppCapabilities : nil)
        }
        return withLiveCounts(cachedSessions)
    }

    /// Deletes the saved session's files with `SessionStore.deleteSession(_:)` (the file, `-wal`, `-shm`, its lock
    /// file), after closing this source's own connections to it. Refuses a session live in `daemon`, and one whose
    /// lock is held (being recorded, or finishing); says so when the file is gone already or cannot be removed.
    package func deleteSession(_ session: String) throws -> String {
        guard deletesSessions else {
            throw SessionDeletionRefused.notDeletedHere(session)
        }
        let id: SessionID
        do {
            id = try SessionID(validating: session)
        } catch {
            throw SessionDeletionRefused("cannot delete session \(session): \(error)")
        }
        if let live = daemon?.liveStatus(of: id), live.isLive {
            throw SessionDeletionRefused("not deleting session \(id): it is live (its app is connected and being "
                + "recorded); it can be deleted once its app disconnects")
        }
        lock.lock()
        let listed = cachedSessions.first { $0.id == session }
        // Close this source's connections to the file first: nothing reads it any more.
        readers[session] = nil
        annotations[session] = nil
        searches[session] = nil
        valuesReaders[session] = nil
        sessionsReadAt = -Double.infinity  // the next `sessions()` lists the directory again
        lock.unlock()
        do {
            try store.deleteSession(id)
        } catch .sessionInUse {
            throw SessionDeletionRefused("not deleting session \(id): its file is still being written (its "
                + "recording is finishing, or another rewind records it); try again once it has ended")
        } catch .notFound {
            throw SessionDeletionRefused("session \(id) is gone already: its file was removed by something else")
        } catch {
            throw SessionDeletionRefused("cannot delete session \(id): \(error)")
        }
        return "deleted session \(id)" + (listed.map { " (\($0.summary))" } ?? "")
    }

    package func events(session: String, range: ClosedRange<Int>) throws -> [TimelineEvent] {
        let reader = try reader(session)
        let annotations = try annotations(session, reader)
        return try reader.eventsOnAllBranches(Int64(range.lowerBound)...Int64(range.upperBound))
            .map { annotations.row($0) }
    }

    package func event(session: String, index: Int) throws -> TimelineEvent {
        let reader = try reader(session)
        return try annotations(session, reader).row(reader.event(at: Int64(index)))
    }

    /// The state after event `index` on the event's own branch (a recomputed row's state comes from its branch).
    package func state(session: String, index: Int) throws -> JSONValue {
        let reader = try reader(session)
        guard index > 0 else { return try reader.state(at: 0) }
        let branch = try reader.event(at: Int64(index)).branch
        return try reader.state(at: Int64(index), branch: branch)
    }

    /// The state of the event's branch before it: the main line's state after `index - 1`, or for a recomputed
    /// row its branch's state after the previous row of that branch (nil for the branch's first row).
    /// From the session file's path index (`SessionReader.history`), on the event's own branch's lineage.
    /// A limited read (the UI thread's) goes through the UI's reader; the whole list (the plot thread's, seconds for
    /// half a million changes) through the values reader, which leaves the UI's free.
    package func history(session: String, pointer: JSONPointer, through index: Int, limit: Int?) throws -> [Int] {
        let reader = try limit == nil ? valuesReader(session) : reader(session)
        guard index > 0 else { return [] }
        let branch = try reader.event(at: Int64(index)).branch
        return try reader.history(of: pointer, through: Int64(index), branch: branch, limit: limit)
            .map { Int($0.index) }
    }

    package func stateBefore(session: String, index: Int) throws -> JSONValue? {
        let reader = try reader(session)
        guard index > 0 else { return nil }
        let branch = try reader.event(at: Int64(index)).branch
        if branch == 0 { return try reader.state(at: Int64(index) - 1, branch: 0) }
        // A branch is recorded in one go, so its previous row is almost always the row just before.
        var upper = Int64(index) - 1
        while upper >= 1 {
            let lower = max(1, upper - 999)
            if let previous = try reader.events(lower...upper, branch: branch).last {
                return try reader.state(at: previous.index, branch: branch)
            }
            upper = lower - 1
        }
        return nil
    }

    // MARK: - Helpers

    /// Must be called with the lock held: live sessions report the daemon's own count, fresher than the file's.
    private func withLiveCounts(_ sessions: [TimelineSession]) -> [TimelineSession] {
        guard let daemon else { return sessions }
        return sessions.map { session in
            guard let id = try? SessionID(validating: session.id), let live = daemon.liveStatus(of: id) else {
                return session
            }
            var copy = session
            copy.eventCount = Int(live.committedIndex)
            copy.status = live.isLive ? .live : .ended
            copy.appConnected = live.isLive
            copy.appCapabilities = live.isLive ? live.capabilities : nil
            return copy
        }
    }

    private func status(of metadata: SessionMetadata) -> TimelineSessionStatus {
        switch metadata.endState {
        case .live: return .live
        case .clean: return .ended
        case .interrupted: return .interrupted
        }
    }

    private func reader(_ session: String) throws -> SessionReader {
        lock.lock()
        defer { lock.unlock() }
        let reader: SessionReader
        if let cached = readers[session] {
            reader = cached
        } else {
            reader = try store.openSession(try SessionID(validating: session))
            readers[session] = reader
        }
        if let daemon, let id = try? SessionID(validating: session), daemon.liveStatus(of: id) != nil {
            try reader.refresh()
        }
        return reader
    }

    /// The session's search (its own connection, opened once): see `SessionTimelineSource+Search.swift`.
    func search(_ session: String) throws -> SessionSearch {
        let reader = try reader(session)
        lock.lock()
        defer { lock.unlock() }
        if let cached = searches[session] { return cached }
        let search = try reader.makeSearch()
        searches[session] = search
        return search
    }

    /// The session's values reader: a connection of its own, opened once, for the pinned watches' and the value
    /// plot's reads (`SessionTimelineSource+Values.swift`), which run off the UI thread and keep its reader free.
    func valuesReader(_ session: String) throws -> SessionReader {
        lock.lock()
        defer { lock.unlock() }
        if let cached = valuesReaders[session] { return cached }
        let reader = try store.openSession(try SessionID(validating: session))
        valuesReaders[session] = reader
        return reader
    }

    /// A reader of the session with a connection of its own, for work off the UI thread that holds it long (the
    /// stats view's scan): the UI's reader stays free meanwhile.
    func separateReader(_ session: String) throws -> SessionReader {
        try store.openSession(try SessionID(validating: session))
    }

    /// The session's annotations, brought up to date with the rows recorded since the last call.
    private func annotations(_ session: String, _ reader: SessionReader) throws -> SessionAnnotations {
        lock.lock()
        defer { lock.unlock() }
        var known = annotations[session]
            ?? SessionAnnotations()
        try known.update(reader)
        annotations[session] = known
        return known
    }
}
