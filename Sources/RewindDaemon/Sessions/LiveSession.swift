import Foundation
import RewindSessionFile
import RewindWebSocket
import RewindWire

/// One app run's session while the daemon runs: the driver of its ``AppIngest`` (the rules of what is recorded and
/// acknowledged), its recording, and the commands sent to its app that still wait for their `result`.
///
/// Everything the app sends goes through ``receive(_:bytes:from:)`` to the ingest machine, whose outputs this class
/// carries out in order under its lock: rows appended to the recording (the recording gives each the index the
/// machine numbered it with: checked at run time), messages and closes sent to the app's connection. The recording
/// tells it of every commit (on its writer thread), which is when the machine acknowledges the app's messages and
/// lets the connection read more: an app whose record does not reach the disk is read no faster than it is committed,
/// and nothing it sent is discarded.
///
/// While the app is connected the machine holds the app's state; once it disconnects the session file is finished
/// and the state let go (a finished run costs the daemon only its identity and counters). A reconnect of the same run
/// (``resume(_:connection:closeWait:reopen:resumePoint:)``) reopens the file and continues from what the file
/// committed, read back as an ``IngestResumePoint``.
///
/// Threading: any thread; every member takes the session's lock (held only for in-memory work: the recording
/// buffers rows and writes them on its own thread), except ``resume(_:connection:closeWait:reopen:resumePoint:)``,
/// which may wait for the previous connection's close to be handled and reads the file, and ``detach(_:)``, which
/// finishes the file outside the lock.
package final class LiveSession: @unchecked Sendable {  // all mutable state guarded by `lock`
    /// The session's id (its file name under the data directory).
    package let id: SessionID
    /// The app this session records.
    package let identity: AppIdentity
    /// The Swift type name of the app's state, as the app reported it.
    package let stateType: String?
    /// When the session started.
    package let startedAt: Date

    private var recording: SessionRecording
    private let hub: DaemonEventHub
    /// Guards every mutable member; also signalled when a detach has finished the file (``resume``).
    private let lock = NSCondition()
    private var ingest: AppIngest
    /// The connection the app is on: where the machine's messages go.
    private var appConnection: AppConnection?
    /// What the app's latest `hello` offered (`hello.capabilities`, PROTOCOL.md §4).
    private var offered: [String] = []
    /// A connection that claimed the session to continue it and waits for the previous one's close (``claim``).
    private var claimant: ConnectionID?
    /// True while a detach finishes the session file.
    private var finishing = false
    /// True while a claimant reopens the file (``resume``).
    private var resuming = false
    private var ended = false
    /// True once the daemon is stopping: a connection closed from now on ends the session `clean`.
    private var daemonStopping = false
    private var pending: [String: @Sendable (CommandResult) -> Void] = [:]
    private var nextCommand: UInt64 = 1
    /// Ticks the machine about every 50 ms while it owes the app an acknowledgment.
    private var ackTimer: DispatchSourceTimer?
    /// Where the recording's commits are handed to the machine, in order, off the writer thread.
    private let commitQueue = DispatchQueue(label: "rewind.daemon.session.commits")
    private let log: @Sendable (String) -> Void
    private var reportedStorageError: String?
    /// True once a row was given another index than the machine's (reported once).
    private var reportedIndexMismatch = false

    /// A new session for an app run first seen with `hello`, recording into `recording` (whose keyframe 0 is the
    /// `hello`'s state). ``connect(_:hello:resumed:)`` binds the connection next.
    init(id: SessionID, hello: Hello, recording: SessionRecording, hub: DaemonEventHub, startedAt: Date,
         maxStateBytes: Int, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.id = id
        self.identity = hello.app
        self.stateType = hello.stateType
        self.startedAt = startedAt
        self.recording = recording
        self.hub = hub
        self.log = log
        ingest = AppIngest(newSessionID: id.rawValue, hello: hello, maxStateBytes: maxStateBytes)
        watchCommits(of: recording)
    }

    /// A session continued from its file (a daemon restart): `recording` is the reopened file and `point` what it
    /// committed.
    init(id: SessionID, identity: AppIdentity, stateType: String?, resumingFrom point: IngestResumePoint,
         recording: SessionRecording, hub: DaemonEventHub, startedAt: Date, maxStateBytes: Int,
         log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.id = id
        self.identity = identity
        self.stateType = stateType
        self.startedAt = startedAt
        self.recording = recording
        self.hub = hub
        self.log = log
        ingest = AppIngest(resumingSessionID: id.rawValue, from: point, maxStateBytes: maxStateBytes)
        watchCommits(of: recording)
    }

    // MARK: - What the session knows

    /// The app's current state as rebuilt by the daemon, or nil while it is unknown (after a failed patch, lost
    /// actions or a `dropped` range, until the next whole state) and once the app disconnected (it is let go then).
    package var currentState: JSONValue? {
        withLock { ingest.knownState }
    }

    /// The connection the app is on, or nil while it is disconnected.
    package var connectionID: ConnectionID? {
        withLock { appConnection?.id }
    }

    /// True while the app is connected.
    package var isLive: Bool { connectionID != nil }

    /// The connection that holds the session: the one taking it over (``claim(for:isOpen:)``), else the one the app is
    /// on; nil when none does.
    var holder: ConnectionID? {
        withLock { claimant ?? appConnection?.id }
    }

    /// The abilities the app's latest `hello` offered (`jump`, `dispatch`, `replay`, `batch`…): the daemon sends it
    /// only the commands they name (see ``Daemon``'s commands). Empty before the first `hello` of this daemon.
    package var capabilities: [String] {
        get { withLock { offered } }
        set { withLock { offered = newValue } }
    }

    /// The index of the last event appended.
    package var lastIndex: Int64 { withLock { recording.lastIndex } }

    /// The index of the last event committed to disk.
    package var committedIndex: Int64 { withLock { recording.committedIndex } }

    /// A problem writing the session file (disk full, unwritable), if any.
    package var storageError: SessionStoreError? { withLock { recording.lastError } }

    /// How many of the app's actions never reached the daemon, each counted in a `dropped` row labelled `lost`.
    package var actionsLost: UInt64 { withLock { ingest.lostActions } }

    /// Every action of the run up to this number is recorded or counted lost (appended; committed soon after).
    var accountedThrough: UInt64 { withLock { ingest.accountedThrough } }

    private func withLock<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    // MARK: - The app's connection

    /// Binds the app's connection after its `hello` passed the checks at the edge: answers `welcome` and records the
    /// start of the run or its reconnect (see ``AppIngest/connect(_:hello:resumed:at:)``).
    func connect(_ connection: AppConnection, hello: Hello, resumed: Bool) {
        lock.lock()
        appConnection = connection
        offered = hello.capabilities
        ended = false
        perform(ingest.connect(connection.id, hello: hello, resumed: resumed, at: .now))
        lock.unlock()
        hub.publish(.sessionStarted(id, identity))
    }

    /// Handles one message of `bytes` bytes the app sent on `connection` after its `hello` (a `result` goes to the
    /// command waiting for it).
    func receive(_ message: AppMessage, bytes: Int, from connection: ConnectionID) {
        if case .result(let result) = message {
            complete(result)
            return
        }
        lock.lock()
        // Each output is carried out as the machine makes it (see `IngestOutputs`): a batch's rows then let go of
        // their states before the next patch applies, which changes the state in place instead of copying its path.
        ingest.receive(message, bytes: bytes, on: connection, at: .now) { carryOut($0) }
        afterOutputs()
        lock.unlock()
    }

    /// Records a message of the app's that could not be decoded, and answers it with `error` (closing the
    /// connection when the code says so).
    func refuse(_ error: WireError, from connection: ConnectionID) {
        lock.lock()
        perform(ingest.refuse(error, on: connection, at: .now))
        lock.unlock()
    }

    /// Carries out the machine's outputs in order, then updates what the connection may read and the ack timer.
    /// Must be called with the lock held.
    private func perform(_ outputs: [IngestOutput]) {
        for output in outputs { carryOut(output) }
        afterOutputs()
    }

    /// Carries out one output of the machine. Must be called with the lock held; does not use the machine.
    private func carryOut(_ output: IngestOutput) {
        switch output {
        case .append(let row):
            let index = recording.append(row.event, stateAfter: row.stateAfter, forceKeyframe: row.forceKeyframe)
            if index != row.index && index != 0 && !reportedIndexMismatch {
                // The machine numbers rows to know what a commit covers; a recording that disagrees would make
                // it acknowledge the wrong rows.
                reportedIndexMismatch = true
                log("session \(id): row \(row.index) was recorded as \(index); acknowledgments may be off")
                assertionFailure("the recording numbered a row differently from the ingest machine")
            }
            publish(row.event, index: row.index)
        case .send(let message, let target):
            if let connection = appConnection, connection.id == target { connection.send(message) }
        case .close(let target, let code, let reason):
            if let connection = appConnection, connection.id == target { connection.close(code: code, reason: reason) }
        }
    }

    /// After the machine's outputs: updates what the connection may read and the ack timer. Must be called with
    /// the lock held.
    private func afterOutputs() {
        reportStorageChange()
        appConnection?.setUncommittedBytes(ingest.uncommittedBytes)
        if ingest.owesAcknowledgment {
            startAckTimer()
        } else if let timer = ackTimer {
            timer.cancel()
            ackTimer = nil
        }
    }

    /// Must be called with the lock held.
    private func startAckTimer() {
        guard ackTimer == nil else { return }
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .userInitiated))
        timer.schedule(deadline: .now() + .milliseconds(50), repeating: .milliseconds(50))
        timer.setEventHandler { [weak self] in self?.tick() }
        timer.resume()
        ackTimer = timer
    }

    private func tick() {
        lock.lock()
        perform(ingest.tick(at: .now))
        lock.unlock()
    }

    /// Tells the machine of every commit of `recording` (ignored once the session records into another file). The
    /// writer thread only queues the news: it must never wait for the session's lock, which a caller may hold while
    /// it waits for the recording.
    private func watchCommits(of recording: SessionRecording) {
        let queue = commitQueue
        recording.setCommitHandler { [weak self, weak recording] index in
            guard let self, let recording else { return }
            queue.async {
                self.lock.lock()
                if recording === self.recording { self.perform(self.ingest.committed(through: index, at: .now)) }
                self.lock.unlock()
            }
        }
    }

    // MARK: - Rows the daemon adds

    /// Records a note on the timeline (a command sent, a storage problem).
    func recordNote(kind: EventKind, label: String, detail: String?, meaning: RowMeaning = RowMeaning()) {
        lock.lock()
        perform(ingest.note(kind: kind, label: label, detail: detail, meaning: meaning, at: .now))
        lock.unlock()
    }

    /// Records a recomputed timeline (a skip's): each event with the state after it, on the event's own branch
    /// (not 0). The app's current state, as the daemon tracks it, does not change: the app reports the state it
    /// ends in itself. Returns the indices given to the events.
    @discardableResult
    func recordBranch(_ events: [(event: NewEvent, stateAfter: JSONValue)]) -> [Int64] {
        lock.lock()
        defer { lock.unlock() }
        let outputs = ingest.branch(events)
        perform(outputs)
        return outputs.compactMap { output in
            if case .append(let row) = output { return row.index }
            return nil
        }
    }

    private func publish(_ event: NewEvent, index: Int64) {
        hub.publish(.recorded(id, RecordedEvent(
            index: index, appSeq: event.appSeq, time: event.time, kind: event.kind, label: event.label,
            action: event.action, patch: event.patch, reducerMicros: event.reducerMicros, detail: event.detail,
            branch: event.branch)), countsAsRecorded: true)
    }

    /// Logs the writer's error when it appears or changes (disk full, unwritable file), and its recovery, once
    /// each: the daemon keeps serving meanwhile, so the log is where a person learns events are not reaching
    /// the disk. Must be called with the lock held.
    private func reportStorageChange() {
        let error = recording.lastError.map { "\($0)" }
        guard error != reportedStorageError else { return }
        if let error {
            log("session \(id): \(error); its app is read only as fast as its events are committed")
        } else {
            log("session \(id): writing to disk again")
        }
        reportedStorageError = error
    }

    // MARK: - Commands to the app

    /// Says what the next state the app puts in place for `reason` (`jump` or `replay`) stands for: its row's
    /// `label` (e.g. `to #12`) and `detail`. Returns a token for ``forgetReplacement(_:)``, for a command that
    /// failed (its snapshot will not come).
    func expectReplacement(reason: String, label: String, detail: String, meaning: RowMeaning = RowMeaning())
        -> UInt64 {
        withLock { ingest.expectReplacement(reason: reason, label: label, detail: detail, meaning: meaning) }
    }

    /// Forgets an expectation whose command failed.
    func forgetReplacement(_ token: UInt64) {
        withLock { ingest.forgetReplacement(token) }
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

    /// Claims the session for `newConnection`, a connection of the same app run, when no open connection holds it:
    /// the connection that last claimed it, or else the one it records, is gone or has closed at the server
    /// (`isOpen` false: its last messages may still be on their way). True when claimed; the caller then continues
    /// it with ``resume(_:connection:closeWait:reopen:resumePoint:)``. A session whose app is connected is never
    /// taken over.
    func claim(for newConnection: ConnectionID, isOpen: (ConnectionID) -> Bool) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if let holder = claimant ?? appConnection?.id, isOpen(holder) { return false }
        claimant = newConnection
        return true
    }

    /// Continues the session on the connection that claimed it: waits (at most `closeWait` seconds) until the
    /// previous connection's close has been handled — its last events recorded and the file finished — then
    /// reopens the file with `reopen`, reads what it committed with `resumePoint`, and binds the connection (the
    /// record continues from the file, not from what an earlier connection had appended: anything not committed was
    /// never acknowledged, and the app sends it again). Throws (and gives up the claim) when the wait or the file work
    /// fails. Call it outside the registry's locks, never on the service thread.
    func resume(_ hello: Hello, connection: AppConnection, closeWait: Double = 30,
                reopen: () throws(SessionStoreError) -> SessionRecording,
                resumePoint: (SessionRecording) throws(SessionStoreError) -> IngestResumePoint)
        throws(SessionStoreError) {
        let newConnection = connection.id
        let deadline = Date(timeIntervalSinceNow: closeWait)
        lock.lock()
        while claimant == newConnection && (appConnection != nil || finishing || resuming) {
            if !lock.wait(until: deadline) { break }
        }
        guard claimant == newConnection, appConnection == nil, !finishing, !resuming else {
            // Timed out, or a newer connection of the app claimed the session after this one closed.
            if claimant == newConnection { claimant = nil }
            lock.unlock()
            throw .sessionInUse(id)
        }
        resuming = true
        let current = ended ? nil : recording
        lock.unlock()
        let continued: SessionRecording
        let point: IngestResumePoint
        do {
            if let current {
                current.flush()
                continued = current
            } else {
                continued = try reopen()
            }
            point = try resumePoint(continued)
        } catch {
            withLock {
                if claimant == newConnection { claimant = nil }
                resuming = false
                lock.broadcast()
            }
            throw error
        }
        lock.lock()
        if continued !== recording {
            recording = continued
            watchCommits(of: continued)
        }
        ingest = AppIngest(resumingSessionID: id.rawValue, from: point, maxStateBytes: ingest.maxStateBytes)
        if claimant == newConnection { claimant = nil }
        resuming = false
        lock.broadcast()
        lock.unlock()
        connect(connection, hello: hello, resumed: true)
    }

    /// The app's connection `connection` closed: pending commands fail, everything recorded is committed, and the
    /// session file is marked as ended — `clean` when the app said `goodbye` and its last action is the last one
    /// accounted for (or the daemon is stopping), `interrupted` otherwise (killed, crashed, reset, or exited with
    /// events undelivered). A reconnect of the same app resumes it. Ignored when the app is on another connection.
    func detach(_ connection: ConnectionID) {
        lock.lock()
        guard let endState = ingest.disconnect(connection, daemonStopping: daemonStopping) else {
            lock.unlock()
            return
        }
        ackTimer?.cancel()
        ackTimer = nil
        let failed = pending
        pending = [:]
        let alreadyEnded = ended
        ended = true
        finishing = !alreadyEnded
        let recording = self.recording
        lock.unlock()
        for (id, completion) in failed {
            completion(CommandResult(id: id, ok: false, error: "the app disconnected before answering"))
        }
        // The session reads as live until its file says how it ended.
        if !alreadyEnded { recording.finish(endState: endState) }
        lock.lock()
        appConnection = nil
        finishing = false
        lock.broadcast()
        lock.unlock()
        guard !alreadyEnded else { return }
        FreedMemory.release()
        hub.publish(.sessionEnded(id))
    }

    /// The daemon is stopping: a connection that closes from now on ends the session `clean` (once its events are
    /// committed), since the app did nothing wrong.
    func markDaemonStopping() {
        withLock { daemonStopping = true }
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
    package func flush() {
        withLock { recording }.flush()
    }
}
