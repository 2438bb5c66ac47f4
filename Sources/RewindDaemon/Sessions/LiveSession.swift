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
    /// `state.compactSize`, kept up to date by the patches; nil until measured (after a full state arrives).
    private var stateSize: Int?
    /// True once the state was released after the app disconnected (until a reconnect brings a new one).
    private var stateReleased = false
    private var connection: ConnectionID?
    /// What the app's latest `hello` offered (`hello.capabilities`, PROTOCOL.md §4).
    private var offered: [String] = []
    /// A connection that claimed the session to continue it and waits for the previous one's close (``claim``).
    private var claimant: ConnectionID?
    /// True while a detach finishes the session file.
    private var finishing = false
    /// True while a claimant reopens the file (``resume``).
    private var resuming = false
    private var appActions: UInt64
    /// Every app action number up to this one is recorded or counted as lost (see ``recordLostActions(through:time:)``).
    private var actionsThrough: UInt64
    /// How many of the app's actions never reached the daemon (counted in this daemon's lifetime of the session).
    private var lostActions: UInt64 = 0
    /// Actions the app announced as lost (`dropped.actionsLost`) that no gap has accounted for yet.
    private var announcedLost: UInt64 = 0
    /// While an app sends again, after a reconnect, what followed its `hello.seq` (`hello.resending` messages),
    /// the actions, ranges and snapshots up to this number were accounted for before the reset and are ignored.
    private var resentThrough: UInt64 = 0
    /// While the app sends again what followed its checkpoint (``resentThrough`` > 0): the app's state rebuilt from
    /// the checkpoint by the messages sent again, which the record does not take a second time. Nil when unknown
    /// (a coalesced range) or when no resend is under way. See ``settleResend()``.
    private var rebuilt: JSONValue?
    /// The app's number of its last action, from its `goodbye` on the current connection.
    private var goodbyeSeq: UInt64?
    private var pending: [String: @Sendable (CommandResult) -> Void] = [:]
    private var nextCommand: UInt64 = 1
    /// What the state-replacing commands sent (jump, replay) put in place, in the order sent: the app's snapshot
    /// answering each takes the first of its reason, so that the row says which event or range it came from.
    private var expectedReplacements: [(token: UInt64, reason: String, label: String, detail: String)] = []
    private var ended = false
    private let log: @Sendable (String) -> Void
    private var reportedStorageError: String?

    init(id: SessionID, identity: AppIdentity, stateType: String?, initialState: JSONValue,
         initialStateKnown: Bool = true, appActions: UInt64,
         recording: SessionRecording, hub: DaemonEventHub, startedAt: Date,
         log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.log = log
        self.id = id
        self.identity = identity
        self.stateType = stateType
        self.state = initialState
        self.stateKnown = initialStateKnown
        self.appActions = appActions
        self.actionsThrough = appActions
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

    /// The abilities the app's latest `hello` offered (`jump`, `dispatch`, `replay`, `batch`…): the daemon sends it
    /// only the commands they name (see ``Daemon``'s commands). Empty before the first `hello` of this daemon.
    public var capabilities: [String] {
        get { withLock { offered } }
        set { withLock { offered = newValue } }
    }

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

    /// How many of the app's actions never reached the daemon, each counted in a `dropped` row labelled `lost`
    /// (since the daemon took the session over; a session resumed after a daemon restart counts again from 0).
    public var actionsLost: UInt64 { withLock { lostActions } }

    /// How many actions the app had dispatched as of the last event received.
    var appActionCount: UInt64 {
        lock.lock()
        defer { lock.unlock() }
        return appActions
    }

    // MARK: - Recording what the app sends

    /// Records one action. `connectionBase` is the app's action count at this connection's `hello`. Returns the
    /// error to report to the app when the patch did not apply, or would make the state larger than
    /// `maxStateBytes` (of compact JSON: what one snapshot message could carry).
    func recordAction(_ event: ActionEvent, connectionBase: UInt64,
                      maxStateBytes: Int = JSONLimits.default.maxBytes) -> WireError? {
        lock.lock()
        if connectionBase &+ event.seq <= resentThrough {
            // Sent again after a reconnect; recorded (or counted lost) before it. Its patch still moves the state
            // rebuilt from the app's checkpoint (see ``recordReconnect(_:connection:resumed:)``).
            if var state = rebuilt, !event.patch.operations.isEmpty {
                var size = state.compactSize(limit: maxStateBytes)
                rebuilt = (try? event.patch.apply(to: &state, size: &size, maxSize: maxStateBytes)).map { state }
            }
            lock.unlock()
            return nil
        }
        settleResend()
        var failure: WireError?
        var patch: JSONPatch? = event.patch.operations.isEmpty ? nil : event.patch
        if let candidate = patch {
            if stateKnown {
                do {
                    var size = stateSize ?? state.compactSize(limit: maxStateBytes)
                    try candidate.apply(to: &state, size: &size, maxSize: maxStateBytes)
                    stateSize = size
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
        if appActions > actionsThrough &+ 1 {
            recordLostActions(through: appActions - 1, time: event.time)
            // The patch applies to a state that includes the lost actions' effects.
            if stateKnown && patch != nil { stateKnown = false }
        }
        actionsThrough = max(actionsThrough, appActions)
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

    /// Records that the app's outbox coalesced: the actions `from...to` (the app's numbers on this connection) carry
    /// no state, and `actionsLost` of them were not kept at all. The row's `action` holds `{"from", "to"}` (the
    /// app's numbers for the session); the lost actions are counted by their own `lost` row when their gap shows.
    func recordDropped(_ dropped: Dropped, connectionBase: UInt64) {
        lock.lock()
        // A range sent again after a reconnect is recorded only from where the record ended before it.
        let from = connectionBase &+ dropped.from
        let first = max(from, resentThrough &+ 1), last = connectionBase &+ dropped.to
        guard first <= last else {
            rebuilt = nil  // a coalesced range sent again: the app's state is unknown until its snapshot
            lock.unlock()
            return
        }
        if from > resentThrough {
            settleResend()
        } else {
            // A range sent again that goes on past where the record ended: its actions follow this message, and
            // those up to ``resentThrough`` are recorded already, so the resend goes on until the first action
            // beyond it (``recordAction``). The state rebuilt from the checkpoint stops here: those actions carry
            // no patch.
            rebuilt = nil
        }
        stateKnown = false
        if first == from { announcedLost &+= dropped.actionsLost }
        var detail = "the app's outbox was full: states of actions \(first)–\(last) were not sent; a snapshot follows"
        if dropped.actionsLost > 0 {
            detail += "; \(dropped.actionsLost) of these actions could not be kept at all and are lost"
        }
        append(NewEvent(time: Date().timeIntervalSince1970, kind: .dropped, label: "dropped",
                        action: .object(JSONObject([("from", .int(Int64(clamping: first))),
                                                    ("to", .int(Int64(clamping: last)))])),
                        detail: detail))
        lock.unlock()
    }

    /// Counts the app's actions after ``actionsThrough`` up to `last` as lost — they never reached the daemon —
    /// and records one `dropped` row labelled `lost` whose `action` is `{"from", "to", "actionsLost"}` (the app's
    /// numbers). Must be called with the lock held.
    private func recordLostActions(through last: UInt64, time: Double) {
        guard last > actionsThrough else { return }
        let first = actionsThrough &+ 1
        let count = last - actionsThrough
        actionsThrough = last
        lostActions &+= count
        let fromOutbox = min(count, announcedLost)
        announcedLost -= fromOutbox
        let why: String
        if fromOutbox == count {
            why = "the app's outbox was full and could not keep them"
        } else if fromOutbox == 0 {
            why = "they were sent but never received (the connection was reset or closed before they arrived)"
        } else {
            why = "\(fromOutbox) could not be kept by the app's full outbox; the others were sent but never "
                + "received (the connection was reset or closed before they arrived)"
        }
        let numbers = count == 1 ? "action \(first)" : "actions \(first)–\(last)"
        append(NewEvent(time: time, kind: .dropped, label: "lost",
                        action: .object(JSONObject([("from", .int(Int64(clamping: first))),
                                                    ("to", .int(Int64(clamping: last))),
                                                    ("actionsLost", .int(Int64(clamping: count)))])),
                        detail: "\(count) \(count == 1 ? "action was" : "actions were") lost (\(numbers)): \(why)"))
    }

    /// For a new session whose app had already dispatched `hello.seq` actions when its `hello` arrived (they went to
    /// a daemon that died before recording them, or to another data directory): they are counted as lost, so the
    /// record accounts for every action from 1 on. The session's initial state is the one after them.
    func recordActionsBeforeFirstHello() {
        lock.lock()
        defer { lock.unlock() }
        let through = actionsThrough
        guard through > 0 else { return }
        actionsThrough = 0
        recordLostActions(through: through, time: Date().timeIntervalSince1970)
    }

    /// Records the app's `goodbye`: its last action on this connection is `goodbye.seq`. Actions up to it that
    /// never arrived are counted as lost. A connection that then closes ends the session `clean`.
    func recordGoodbye(_ goodbye: Goodbye, connectionBase: UInt64) {
        lock.lock()
        settleResend()
        let last = connectionBase &+ goodbye.seq
        recordLostActions(through: last, time: Date().timeIntervalSince1970)
        goodbyeSeq = last
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
        if connectionBase &+ snapshot.seq <= resentThrough {
            // Sent again after a reconnect; recorded before it, but the state rebuilt from the app's checkpoint
            // follows it.
            rebuilt = snapshot.state
            lock.unlock()
            return
        }
        settleResend()
        appActions = connectionBase &+ snapshot.seq
        // The state includes every action up to its seq: those that never arrived are lost.
        recordLostActions(through: appActions, time: Date().timeIntervalSince1970)
        var label = snapshot.reason ?? kind.rawValue
        var detail: String?
        if kind != .snapshot, let found = expectedReplacements.firstIndex(where: { $0.reason == snapshot.reason }) {
            label = expectedReplacements[found].label
            detail = expectedReplacements[found].detail
            expectedReplacements.remove(at: found)
        }
        replaceState(with: snapshot.state, kind: kind, label: label, detail: detail, appSeq: Int64(clamping: appActions))
        lock.unlock()
    }

    /// Records the app's return on a new connection, with the state its `hello` carried. `resumed` is the session
    /// file reopened for appending when the previous recording had been finished.
    ///
    /// A `hello` whose `seq` is below what was already recorded comes from an app that sends again what followed
    /// it (frames in flight when its connection reset were lost, and it cannot tell which): the daemon keeps its
    /// own state — the recorded one, or unknown — and ignores the actions and ranges up to what it had recorded
    /// (``resentThrough``). A `hello` whose `seq` is beyond it counts the actions in between as lost.
    func recordReconnect(_ hello: Hello, connection newConnection: ConnectionID, resumed: SessionRecording?) {
        lock.lock()
        if let resumed { recording = resumed }
        connection = newConnection
        if claimant == newConnection { claimant = nil }
        ended = false
        goodbyeSeq = nil
        resentThrough = 0
        var detail = "the app reconnected"
        if let seq = hello.seq, seq < actionsThrough {
            // The app starts again from an earlier checkpoint and sends again what followed it. What the record
            // already accounts for (through `actionsThrough`) is not recorded twice, but it brings the state, rebuilt
            // from the checkpoint, up to date: the daemon's own state may have been released when the app left, or
            // lost with a daemon restart.
            resentThrough = actionsThrough
            rebuilt = hello.state
            appActions = seq
            detail += "; it sends again what followed its action \(seq), and what the daemon had not received "
                + "is recorded after this row"
            // The state does not change here: the record goes on from its own state, so the row carries an empty
            // patch (not a full state). Where the record had lost track of the app's state (inside a `dropped`
            // range) the row is a note, which does not end that range for readers; the state the messages sent
            // again rebuild is put in place once they are through (``settleResend()``).
            append(NewEvent(appSeq: Int64(clamping: seq), time: Date().timeIntervalSince1970,
                            kind: stateKnown ? .reconnect : .note, label: "reconnect",
                            patch: stateKnown ? JSONPatch() : nil, detail: detail))
        } else {
            if let seq = hello.seq {
                if seq > actionsThrough {
                    detail += "; \(seq - actionsThrough) action(s) before it were not received (see the lost row)"
                    recordLostActions(through: seq, time: Date().timeIntervalSince1970)
                }
                appActions = seq
            }
            replaceState(with: hello.state, kind: .reconnect, label: "reconnect", detail: detail,
                         appSeq: hello.seq.map { Int64(clamping: $0) })
        }
        stateReleased = false
        lock.unlock()
        hub.publish(.sessionStarted(id, identity))
    }

    /// The messages the app sent again after its reconnect have all been handled.
    func endResend() {
        lock.lock()
        settleResend()
        lock.unlock()
    }

    /// Ends a resend (the first message beyond what the record already had, or the last one sent again): where the
    /// record had lost track of the app's state (a coalesced range open when the connection reset) and the messages
    /// sent again rebuilt it, a `reconnect` row puts the rebuilt state in place, so the record is whole again. Must
    /// be called with the lock held.
    private func settleResend() {
        guard resentThrough > 0 else { return }
        resentThrough = 0
        if !stateKnown, let rebuilt {
            replaceState(with: rebuilt, kind: .reconnect, label: "reconnect",
                         detail: "the state the app's messages sent again after its reconnect rebuilt",
                         appSeq: Int64(clamping: actionsThrough))
        }
        rebuilt = nil
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
        stateSize = nil
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

    /// Says what the next state the app puts in place for `reason` (`jump` or `replay`) stands for: its row's
    /// `label` (e.g. `to #12`) and `detail`. Returns a token for ``forgetReplacement(_:)``, for a command that
    /// failed (its snapshot will not come).
    func expectReplacement(reason: String, label: String, detail: String) -> UInt64 {
        withLock {
            let token = nextCommand
            nextCommand += 1
            expectedReplacements.append((token, reason, label, detail))
            if expectedReplacements.count > 64 { expectedReplacements.removeFirst() }
            return token
        }
    }

    /// Forgets an expectation whose command failed.
    func forgetReplacement(_ token: UInt64) {
        withLock { expectedReplacements.removeAll { $0.token == token } }
    }

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

    /// Delivers the app's `result` to whoever sent the command. A portion of a `replay` answer (`more`, with `ok`)
    /// leaves the command waiting for the rest.
    func complete(_ result: CommandResult) {
        lock.lock()
        let completion = result.more && result.ok ? pending[result.id] : pending.removeValue(forKey: result.id)
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
                reopen: () throws(SessionStoreError) -> SessionRecording,
                reload: () throws(SessionStoreError) -> (state: JSONValue, known: Bool)) throws(SessionStoreError) {
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
        // An app that sends again what followed an earlier checkpoint continues the record from its own last
        // state, which was released when the app left: read it back from the file.
        let needsState = stateReleased && (hello.seq ?? .max) < actionsThrough
        lock.unlock()
        var reopened: SessionRecording?
        if needsReopening || needsState {
            do {
                if needsState {
                    let last = try reload()
                    withLock {
                        state = last.state
                        stateKnown = last.known
                        stateSize = nil
                    }
                }
                if needsReopening { reopened = try reopen() }
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
    /// session file is marked as ended: `clean` when the app said `goodbye` and its last action is the last one
    /// accounted for, `interrupted` otherwise (killed, crashed, reset, or exited with events undelivered). A
    /// reconnect of the same app resumes it; then the app's state is released. Ignored when the app is already
    /// back on a newer connection.
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
        let endState: SessionEndState = goodbyeSeq != nil && goodbyeSeq == actionsThrough ? .clean : .interrupted
        finishing = !alreadyEnded
        let recording = self.recording
        // A finished run keeps only what lists or resumes it: the reconnect's hello brings the whole state back.
        state = .null
        stateSize = nil
        stateKnown = false
        stateReleased = true
        lock.unlock()
        for (id, completion) in failed {
            completion(CommandResult(id: id, ok: false, error: "the app disconnected before answering"))
        }
        guard !alreadyEnded else { return }
        recording.finish(endState: endState)
        lock.lock()
        finishing = false
        lock.broadcast()
        lock.unlock()
        FreedMemory.release()
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
