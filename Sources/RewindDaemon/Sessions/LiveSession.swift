import Foundation
import RewindWebSocket
import RewindWire

/// One app's session while the daemon runs: its recording, the app's current state as rebuilt from patches, and
/// the commands sent to the app that still wait for their `result`.
///
/// The state is rebuilt by applying every event's patch. When a patch does not apply (or the app announced a
/// `dropped` range), the state is *unknown* until the next `snapshot`: events are still recorded, without a
/// patch, an error event says what happened, and a resync is requested from the app. A snapshot, a jump, a replay
/// and a reconnect's `hello` are recorded with the patch from the previous state to theirs, so that "the state at
/// event N = nearest keyframe + patches" holds for every event of the file.
///
/// While the app is connected the session holds the app's state; once it disconnects and the file is finished,
/// the state is released (a finished run costs the daemon only its identity and counters), and a reconnect's
/// `hello` brings the whole state back (recorded as a keyframe).
///
/// Threading: any thread; every member takes the session's lock (held only for in-memory work: the recording
/// buffers events and writes them on its own thread), except ``resume(_:connection:reopen:)``, which may wait for
/// the previous connection's close to be handled.
public final class LiveSession: @unchecked Sendable {  // all mutable state guarded by `lock`
    /// The session's id (its file name under the data directory).
    public let id: SessionID
    /// The app this session records.
    public let identity: AppIdentity
    /// The Swift type name of the app's state, as the app reported it.
    public let stateType: String?
    /// When the session started.
    public let startedAt: Date

    private var recording: SessionRecording
    private let hub: DaemonEventHub
    /// Guards every mutable member; also signalled when a detach has finished the file (``resume``).
    private let lock = NSCondition()
    private var state: JSONValue
    private var stateKnown = true
    /// True once the state was released after the app disconnected (until a reconnect brings a new one).
    private var stateReleased = false
    private var connection: ConnectionID?
    /// A connection that claimed the session to continue it and waits for the previous one's close (``claim``).
    private var claimant: ConnectionID?
    /// True while a detach finishes the session file.
    private var finishing = false
    /// True while a claimant reopens the file (``resume``).
    private var resuming = false
    private var appActions: UInt64
    private var pending: [String: @Sendable (CommandResult) -> Void] = [:]
    private var nextCommand: UInt64 = 1
    private var ended = false
    private let log: @Sendable (String) -> Void
    private var reportedStorageError: String?

    init(id: SessionID, identity: AppIdentity, stateType: String?, initialState: JSONValue, appActions: UInt64,
         recording: SessionRecording, hub: DaemonEventHub, startedAt: Date,
         log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.log = log
        self.id = id
        self.identity = identity
        self.stateType = stateType
        self.state = initialState
        self.appActions = appActions
        self.recording = recording
        self.hub = hub
        self.startedAt = startedAt
    }

    // MARK: - What the session knows

    /// The app's current state as rebuilt by the daemon, or nil while it is unknown (after a failed patch or a
    /// `dropped` range, until the next snapshot) and once the app disconnected (the state is released then).
    public var currentState: JSONValue? {
        lock.lock()
        defer { lock.unlock() }
        // Spelled out: a bare `nil` here would be JSONValue's nil literal (`.null`), not "unknown".
        return stateKnown ? state : JSONValue?.none
    }

    /// The connection the app is on, or nil while it is disconnected.
    public var connectionID: ConnectionID? {
        lock.lock()
        defer { lock.unlock() }
        return connection
    }

    /// True while the app is connected.
    public var isLive: Bool { connectionID != nil }

    /// The index of the last event appended.
    public var lastIndex: Int64 { withLock { recording.lastIndex } }

    /// The index of the last event committed to disk.
    public var committedIndex: Int64 { withLock { recording.committedIndex } }

    /// A problem writing the session file (disk full, unwritable), if any.
    public var storageError: SessionStoreError? { withLock { recording.lastError } }

    private func withLock<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    /// How many actions the app had dispatched as of the last event received.
    var appActionCount: UInt64 {
        lock.lock()
        defer { lock.unlock() }
        return appActions
    }

    // MARK: - Recording what the app sends

    /// Records one action. `connectionBase` is the app's action count at this connection's `hello`. Returns the
    /// error to report to the app when the patch did not apply.
    func recordAction(_ event: ActionEvent, connectionBase: UInt64) -> WireError? {
        lock.lock()
        var failure: WireError?
        var patch: JSONPatch? = event.patch.operations.isEmpty ? nil : event.patch
        if let candidate = patch {
            if stateKnown {
                do {
                    try candidate.apply(to: &state)
                } catch {
                    failure = WireError(code: .patchFailed,
                                        message: "the patch of event \(event.seq) does not apply: \(error)")
                    stateKnown = false
                    patch = nil
                }
            } else {
                patch = nil
            }
        }
        appActions = connectionBase &+ event.seq
        let new = NewEvent(appSeq: Int64(clamping: appActions), time: event.time, kind: .action,
                           label: event.action.type, action: event.action.payload, patch: patch,
                           reducerMicros: event.reducerMicros, detail: event.source?.location)
        append(new)
        if let failure {
            append(NewEvent(time: event.time, kind: .error, label: failure.code.rawValue, detail: failure.message))
        }
        lock.unlock()
        return failure
    }

    /// Records that the app's outbox coalesced: the actions `from...to` (the app's numbers) carry no state.
    func recordDropped(from: UInt64, to: UInt64, connectionBase: UInt64) {
        lock.lock()
        stateKnown = false
        let first = connectionBase &+ from, last = connectionBase &+ to
        append(NewEvent(time: Date().timeIntervalSince1970, kind: .dropped, label: "dropped",
                        detail: "the app's outbox was full: states of actions \(first)–\(last) were not sent; "
                            + "a snapshot follows"))
        lock.unlock()
    }

    /// Records a full state from the app: a `snapshot` (after coalescing or a resync), or the state a jump or a
    /// replay put in place.
    func recordSnapshot(_ snapshot: Snapshot, connectionBase: UInt64) {
        let kind: EventKind
        switch snapshot.reason {
        case "jump": kind = .jump
        case "replay": kind = .replay
        default: kind = .snapshot
        }
        lock.lock()
        appActions = connectionBase &+ snapshot.seq
        replaceState(with: snapshot.state, kind: kind, label: snapshot.reason ?? kind.rawValue,
                     detail: nil, appSeq: Int64(clamping: appActions))
        lock.unlock()
    }

    /// Records the app's return on a new connection, with the state its `hello` carried. `resumed` is the session
    /// file reopened for appending when the previous recording had been finished.
    func recordReconnect(_ hello: Hello, connection newConnection: ConnectionID, resumed: SessionRecording?) {
        lock.lock()
        if let resumed { recording = resumed }
        connection = newConnection
        if claimant == newConnection { claimant = nil }
        ended = false
        var detail = "the app reconnected"
        if let seq = hello.seq {
            if seq > appActions {
                detail += "; \(seq - appActions) action(s) dispatched meanwhile were not received"
            }
            appActions = seq
        }
        replaceState(with: hello.state, kind: .reconnect, label: "reconnect", detail: detail,
                     appSeq: hello.seq.map { Int64(clamping: $0) })
        stateReleased = false
        lock.unlock()
        hub.publish(.sessionStarted(id, identity))
    }

    /// Forgets the rebuilt state until the next full state arrives (after an out-of-order event).
    func markStateUnknown() {
        lock.lock()
        stateKnown = false
        lock.unlock()
    }

    /// Records a protocol problem with this session's app (out-of-order sequence, undecodable frame, …).
    func recordError(_ error: WireError) {
        lock.lock()
        append(NewEvent(time: Date().timeIntervalSince1970, kind: .error, label: error.code.rawValue,
                        detail: error.message))
        lock.unlock()
    }

    /// Records a note on the timeline (a command sent, a storage problem).
    func recordNote(kind: EventKind, label: String, detail: String?) {
        lock.lock()
        append(NewEvent(time: Date().timeIntervalSince1970, kind: kind, label: label, detail: detail))
        lock.unlock()
    }

    /// Records a recomputed timeline (a skip's): each event with the state after it, on the event's own branch
    /// (not 0). The app's current state, as the daemon tracks it, does not change: the app reports the state it
    /// ends in itself. Returns the indices given to the events.
    @discardableResult
    func recordBranch(_ events: [(event: NewEvent, stateAfter: JSONValue)]) -> [Int64] {
        lock.lock()
        defer { lock.unlock() }
        return events.map { item in
            let index = recording.append(item.event, stateAfter: item.stateAfter)
            publish(item.event, index: index)
            return index
        }
    }

    /// Must be called with the lock held.
    private func replaceState(with new: JSONValue, kind: EventKind, label: String, detail: String?, appSeq: Int64?) {
        let patch: JSONPatch? = stateKnown ? JSONPatch.diff(from: state, to: new) : nil
        let full = !stateKnown
        state = new
        stateKnown = true
        let text = full && !stateReleased
            ? [detail, "full state (the previous one was unknown)"].compactMap { $0 }.joined(separator: "; ")
            : detail
        append(NewEvent(appSeq: appSeq, time: Date().timeIntervalSince1970, kind: kind, label: label,
                        patch: patch, detail: text), forceKeyframe: full)
    }

    /// Must be called with the lock held.
    private func append(_ event: NewEvent, forceKeyframe: Bool = false) {
        let index = recording.append(event, stateAfter: state, forceKeyframe: forceKeyframe)
        publish(event, index: index)
        reportStorageChange()
    }

    /// Logs the writer's error when it appears or changes (disk full, unwritable file), and its recovery, once
    /// each: the daemon keeps serving meanwhile, so the log is where a person learns events are not reaching
    /// the disk. Must be called with the lock held.
    private func reportStorageChange() {
        let error = recording.lastError.map { "\($0)" }
        guard error != reportedStorageError else { return }
        if let error {
            log("session \(id): \(error)")
        } else {
            log("session \(id): writing to disk again")
        }
        reportedStorageError = error
    }

    /// Must be called with the lock held.
    private func publish(_ event: NewEvent, index: Int64) {
        hub.publish(.recorded(id, RecordedEvent(
            index: index, appSeq: event.appSeq, time: event.time, kind: event.kind, label: event.label,
            action: event.action, patch: event.patch, reducerMicros: event.reducerMicros, detail: event.detail,
            branch: event.branch)), countsAsRecorded: true)
    }

    // MARK: - Commands to the app

    /// Registers a command about to be sent and returns its id; `completion` gets the app's `result` (or a
    /// failure when the app disconnects first).
    func registerCommand(_ completion: @escaping @Sendable (CommandResult) -> Void) -> String {
        lock.lock()
        defer { lock.unlock() }
        let id = "c\(nextCommand)"
        nextCommand += 1
        pending[id] = completion
        return id
    }

    /// Delivers the app's `result` to whoever sent the command.
    func complete(_ result: CommandResult) {
        lock.lock()
        let completion = pending.removeValue(forKey: result.id)
        lock.unlock()
        completion?(result)
    }

    /// Fails command `id` with `error` if the app has not answered it yet (its time ran out). True when it had
    /// not been answered.
    @discardableResult
    func failCommand(_ id: String, error: String) -> Bool {
        lock.lock()
        let completion = pending.removeValue(forKey: id)
        lock.unlock()
        completion?(CommandResult(id: id, ok: false, error: error))
        return completion != nil
    }

    /// Forgets a command that could not be sent.
    func cancelCommand(_ id: String) {
        lock.lock()
        pending[id] = nil
        lock.unlock()
    }

    // MARK: - Life cycle

    /// The app is on `connection` from now on.
    func attach(_ connection: ConnectionID) {
        lock.lock()
        self.connection = connection
        lock.unlock()
    }

    /// Claims the session for `newConnection`, a connection of the same app run, when no open connection holds it:
    /// the connection that last claimed it, or else the one it records, is gone or has closed at the server
    /// (`isOpen` false: its last messages may still be on their way). True when claimed; the caller then continues
    /// it with ``resume(_:connection:closeWait:reopen:)``. A session whose app is connected is never taken over.
    func claim(for newConnection: ConnectionID, isOpen: (ConnectionID) -> Bool) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if let holder = claimant ?? connection, isOpen(holder) { return false }
        claimant = newConnection
        return true
    }

    /// Continues the session on the connection that claimed it: waits (at most `closeWait` seconds) until the
    /// previous connection's close has been handled — its last events recorded and the file finished — then
    /// reopens the file with `reopen` when it had been finished and records the reconnect. Throws (and gives up
    /// the claim) when the wait or the reopening fails. Call it outside the registry's locks, never on the
    /// service thread.
    func resume(_ hello: Hello, connection newConnection: ConnectionID, closeWait: Double = 30,
                reopen: () throws(SessionStoreError) -> SessionRecording) throws(SessionStoreError) {
        let deadline = Date(timeIntervalSinceNow: closeWait)
        lock.lock()
        while claimant == newConnection && (connection != nil || finishing || resuming) {
            if !lock.wait(until: deadline) { break }
        }
        guard claimant == newConnection, connection == nil, !finishing, !resuming else {
            // Timed out, or a newer connection of the app claimed the session after this one closed.
            if claimant == newConnection { claimant = nil }
            lock.unlock()
            throw .sessionInUse(id)
        }
        resuming = true
        let needsReopening = ended
        lock.unlock()
        var reopened: SessionRecording?
        if needsReopening {
            do {
                reopened = try reopen()
            } catch {
                withLock {
                    if claimant == newConnection { claimant = nil }
                    resuming = false
                    lock.broadcast()
                }
                throw error
            }
        }
        recordReconnect(hello, connection: newConnection, resumed: reopened)
        withLock {
            resuming = false
            lock.broadcast()
        }
    }

    /// The app's connection `connection` closed: pending commands fail, everything recorded is flushed, and the
    /// session file is marked as ended cleanly (a reconnect of the same app resumes it); then the app's state is
    /// released. Ignored when the app is already back on a newer connection.
    func detach(_ connection: ConnectionID) {
        lock.lock()
        guard self.connection == connection else {
            lock.unlock()
            return
        }
        self.connection = nil
        let failed = pending
        pending = [:]
        let alreadyEnded = ended
        ended = true
        finishing = !alreadyEnded
        let recording = self.recording
        // A finished run keeps only what lists or resumes it: the reconnect's hello brings the whole state back.
        state = .null
        stateKnown = false
        stateReleased = true
        lock.unlock()
        for (id, completion) in failed {
            completion(CommandResult(id: id, ok: false, error: "the app disconnected before answering"))
        }
        guard !alreadyEnded else { return }
        recording.finish(endState: .clean)
        lock.lock()
        finishing = false
        lock.broadcast()
        lock.unlock()
        hub.publish(.sessionEnded(id))
    }

    /// Ends the recording (daemon shutdown) with `endState`.
    func finish(endState: SessionEndState) {
        lock.lock()
        let alreadyEnded = ended
        ended = true
        lock.unlock()
        guard !alreadyEnded else { return }
        withLock { recording }.finish(endState: endState)
    }

    /// True once the recording was finished (the app disconnected or the daemon is stopping).
    var hasEnded: Bool { withLock { ended } }

    /// Waits until everything appended so far is on disk.
    public func flush() {
        withLock { recording }.flush()
    }
}
