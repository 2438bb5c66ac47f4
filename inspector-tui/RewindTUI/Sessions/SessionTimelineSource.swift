import Foundation
import RewindDaemon
import RewindWire

/// The timeline's data, read lazily from the session files (only the rows on screen), with live status and the
/// events-per-second figure from a running ``Daemon`` when there is one (`rewind`), or without (`rewind open`).
///
/// Skipped actions are marked (`TimelineEvent.isSkipped`): the daemon records each skip toggle as a `skip` event
/// of the main line labelled `skip` or `unskip` whose detail starts `event N`; the source replays those, reading
/// only the labels it has not seen yet.
///
/// Threading: any thread; readers and caches are guarded by a lock. Reading never blocks the daemon's ingest:
/// session files are read through their own read-only connections (WAL snapshots).
public final class SessionTimelineSource: TimelineDataSource, @unchecked Sendable {  // state guarded by `lock`
    private let store: SessionStore
    private let daemon: Daemon?
    private let address: String?
    private let only: SessionID?
    private let lock = NSLock()
    private var readers: [String: SessionReader] = [:]
    private var skips: [String: (scannedThrough: Int64, skipped: Set<Int64>)] = [:]
    private var cachedSessions: [TimelineSession] = []
    private var sessionsReadAt = -Double.infinity
    private var rateSamples: [(time: Double, total: UInt64)] = []

    /// A source over `store`; `daemon` adds live status and rates; `only` restricts it to one saved session.
    public init(store: SessionStore, daemon: Daemon?, address: String? = nil, only: SessionID? = nil) {
        self.store = store
        self.daemon = daemon
        self.address = address
        self.only = only
    }

    /// Grows whenever an event is recorded or a session starts or ends (the timeline repaints then).
    public var changeCounter: UInt64 {
        guard let daemon else { return 0 }
        return daemon.events.totalRecorded &+ UInt64(daemon.sessions.filter(\.isLive).count) << 48
    }

    public func header() -> TimelineHeader {
        guard let daemon else {
            return TimelineHeader(caption: only.map { "session \($0)" })
        }
        let now = Date().timeIntervalSince1970
        let total = daemon.events.totalRecorded
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
            listeningAddress: address, connectedApps: daemon.sessions.filter(\.isLive).count,
            isRecording: true, eventsPerSecond: rates)
    }

    public func sessions() -> [TimelineSession] {
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
                status: status(of: metadata))
        }
        return withLiveCounts(cachedSessions)
    }

    public func events(session: String, range: ClosedRange<Int>) throws -> [TimelineEvent] {
        let reader = try reader(session)
        let skipped = try skippedEvents(session, reader)
        return try reader.events(Int64(range.lowerBound)...Int64(range.upperBound)).map { Self.row($0, skipped) }
    }

    public func eventDetail(session: String, index: Int) throws -> TimelineEventDetail {
        let reader = try reader(session)
        let event = try reader.event(at: Int64(index))
        return TimelineEventDetail(event: Self.row(event, try skippedEvents(session, reader)),
                                   appSeq: event.appSeq.map { Int($0) }, action: event.action, patch: event.patch)
    }

    public func state(session: String, index: Int) throws -> JSONValue {
        try reader(session).state(at: Int64(index))
    }

    // MARK: - Helpers

    /// Must be called with the lock held: live sessions report the daemon's own count, fresher than the file's.
    private func withLiveCounts(_ sessions: [TimelineSession]) -> [TimelineSession] {
        guard let daemon else { return sessions }
        return sessions.map { session in
            guard let id = try? SessionID(validating: session.id), let live = daemon.session(id) else { return session }
            var copy = session
            copy.eventCount = Int(live.committedIndex)
            copy.status = live.isLive ? .live : .ended
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
        if let daemon, let id = try? SessionID(validating: session), daemon.session(id) != nil {
            try reader.refresh()
        }
        return reader
    }

    /// The session's skipped action events, brought up to date with the skip toggles recorded since the last
    /// call (a scan of the new labels only).
    private func skippedEvents(_ session: String, _ reader: SessionReader) throws -> Set<Int64> {
        lock.lock()
        defer { lock.unlock() }
        var known = skips[session] ?? (scannedThrough: 0, skipped: [])
        let count = reader.eventCount
        guard count > known.scannedThrough else { return known.skipped }
        for index in try reader.eventIndices(matchingLabel: "^(skip|unskip)$", in: (known.scannedThrough + 1)...count) {
            let toggle = try reader.event(at: index)
            guard toggle.kind == .skip, toggle.branch == 0, let detail = toggle.detail, detail.hasPrefix("event "),
                  let target = Int64(detail.dropFirst("event ".count).prefix(while: \.isNumber)) else { continue }
            if toggle.label == "skip" {
                known.skipped.insert(target)
            } else {
                known.skipped.remove(target)
            }
        }
        known.scannedThrough = count
        skips[session] = known
        return known.skipped
    }

    private static func row(_ event: RecordedEvent, _ skipped: Set<Int64>) -> TimelineEvent {
        TimelineEvent(
            index: Int(event.index), time: event.time,
            kind: TimelineEventKind(rawValue: event.kind.rawValue) ?? .note, label: event.label,
            patchSize: event.patch?.operations.count, reducerMicros: event.reducerMicros, detail: event.detail,
            isSkipped: event.kind == .action && event.branch == 0 && skipped.contains(event.index),
            branch: Int(event.branch))
    }
}
