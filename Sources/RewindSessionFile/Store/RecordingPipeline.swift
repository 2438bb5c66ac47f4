import Dispatch
import Foundation
import RewindWire

/// The machinery behind a `SessionRecording`: the appenders' side (index numbering, keyframe policy, the buffer)
/// and the writer thread that commits the buffer to the file in batches.
///
/// Threading (why `@unchecked Sendable` is safe):
/// - `appendLock` serializes appenders (`append`, `finish`'s first step) and guards the appender state:
///   `nextIndex`, `cursors`, `finished`. JSON serialization happens under it, off the writer.
/// - `condition` guards the state shared with the writer thread: `pending`, `bufferedBytes`, the indices, the
///   flush/stop requests and the error. It is held only for short bookkeeping, never during disk I/O.
/// - `writer` (the SQLite connection) is confined: the creating thread hands it over before the writer thread
///   starts, and from then on only the writer thread touches it.
/// - `sessionLock` is released by `finish` after the writer thread has exited.
/// - `commitHandler` is set once, before the first append, and called on the writer thread with no lock held.
/// Lock order: `appendLock` before `condition`.
package final class RecordingPipeline: @unchecked Sendable {
    package let id: SessionID
    package let path: String
    package let options: RecordingOptions

    // MARK: Appender state (appendLock)

    private let appendLock = NSLock()
    private var nextIndex: Int64 = 1
    private var cursors: [Int64: BranchCursor]
    private var finished = false

    /// Where a branch stands since its last keyframe. (It deliberately keeps no state: holding the app's last
    /// state would make the recorder copy it on its next change.)
    private struct BranchCursor {
        var eventsSinceKeyframe = 0
        var patchBytesSinceKeyframe = 0
    }

    /// Kinds that, without a patch, stand for a state replaced as a whole: they get a keyframe.
    private static let replacingKinds: Set<EventKind> = [.snapshot, .jump, .reconnect, .replay]

    // MARK: Shared with the writer thread (condition)

    private let condition = NSCondition()
    private var pending: [PendingEvent] = []
    private var oldestPendingAt: UInt64 = 0
    private var bufferedBytes = 0
    private var lastQueuedIndex: Int64 = 0
    private var committedIndex: Int64 = 0
    private var flushRequested = false
    private var stopRequest: (endState: SessionEndState, at: Date)?
    private var failedSinceStop = false
    private var writerExited = false
    /// True once `finish` released the session's lock (a second `finish` returns only then).
    private var lockReleased = false
    private var completedAttempts = 0
    private var lastAttemptFailed = false
    private var retryAt: UInt64?
    private var error: SessionStoreError?
    private var droppedEvents: Int64 = 0

    // MARK: Confined

    private var writer: SessionFileWriter?
    private var sessionLock: SessionLock?
    /// Told the index of the last committed event after every successful commit (writer thread).
    private var commitHandler: (@Sendable (Int64) -> Void)?

    /// A pipeline for a new session (`initialState` given, numbering from 1), or for a resumed one
    /// (`initialState` nil, numbering after `lastIndex`; each branch's first event after resuming gets a keyframe).
    package init(id: SessionID, path: String, options: RecordingOptions, writer: SessionFileWriter, lock: SessionLock,
         initialState: JSONValue?, lastIndex: Int64 = 0) {
        self.id = id
        self.path = path
        self.options = options
        self.writer = writer
        self.sessionLock = lock
        cursors = initialState == nil ? [:] : [0: BranchCursor()]
        nextIndex = lastIndex + 1
        lastQueuedIndex = lastIndex
        committedIndex = lastIndex
    }

    /// Starts the writer thread.
    package func start() {
        let thread = Thread { [self] in writerLoop() }
        thread.name = "rewind-writer \(id)"
        thread.start()
    }

    // MARK: Reading the shared state

    package var lastError: SessionStoreError? {
        condition.withLock { error }
    }

    package var committedEventIndex: Int64 {
        condition.withLock { committedIndex }
    }

    package var appendedEventIndex: Int64 {
        appendLock.withLock { nextIndex - 1 }
    }

    package var droppedEventCount: Int64 {
        condition.withLock { droppedEvents }
    }

    package var bufferedByteCount: Int {
        condition.withLock { bufferedBytes }
    }

    /// Sets the handler told of every commit. Call before the first append (the writer reads it without a lock).
    package func setCommitHandler(_ handler: @escaping @Sendable (Int64) -> Void) {
        condition.withLock { commitHandler = handler }
    }

    // MARK: Appending

    /// Appends one event (see `SessionRecording.append`). `forceKeyframe` writes the state after it whatever the
    /// policy says. Never discards an event: past ``RecordingOptions/maxBufferedBytes`` it is buffered all the same
    /// (the daemon stops reading an app whose events wait for the disk, which bounds what it appends), unless
    /// `waitWhenFull` makes the call wait for room first (imports: a batch job where waiting is fine).
    package func append(_ event: NewEvent, stateAfter: JSONValue, forceKeyframe: Bool = false, waitWhenFull: Bool = false)
        -> Int64 {
        appendLock.lock()
        defer { appendLock.unlock() }
        if finished { return 0 }
        let actionText = event.action?.serialized()
        let patchText = event.patch?.json.serialized()
        var row = PendingEvent(
            index: 0, branch: event.branch, appSeq: event.appSeq, time: event.time, kind: event.kind,
            label: event.label, action: actionText, patch: patchText, reducerMicros: event.reducerMicros,
            detail: event.detail, unknown: event.meaning.unknownState?.reason.rawValue,
            unknownCause: event.meaning.unknownState?.cause, meaning: event.meaning.storedFacts?.serialized(),
            keyframe: nil, touches: event.patch.map { PatchTouches($0, stateAfter: stateAfter) })
        if needsKeyframe(event, patchBytes: patchText?.utf8.count ?? 0, force: forceKeyframe) {
            row.keyframe = stateAfter.serialized()
        }
        if waitWhenFull { waitForRoom(row.bytes) }
        row.index = nextIndex
        nextIndex += 1
        enqueue(row)
        return row.index
    }

    /// Decides whether the event gets a keyframe and moves its branch's cursor.
    private func needsKeyframe(_ event: NewEvent, patchBytes: Int, force: Bool) -> Bool {
        guard var cursor = cursors[event.branch] else {
            cursors[event.branch] = BranchCursor()
            return true
        }
        cursor.eventsSinceKeyframe += 1
        cursor.patchBytesSinceKeyframe += patchBytes
        let replacedState = event.patch == nil && RecordingPipeline.replacingKinds.contains(event.kind)
        let due = force || replacedState
            || cursor.eventsSinceKeyframe >= options.keyframeInterval
            || cursor.patchBytesSinceKeyframe >= options.keyframePatchBytes
        if due {
            cursor.eventsSinceKeyframe = 0
            cursor.patchBytesSinceKeyframe = 0
        }
        cursors[event.branch] = cursor
        return due
    }

    /// Waits until the buffer has room for `bytes` more (or holds nothing), or until the writer fails a write
    /// attempted after the call.
    private func waitForRoom(_ bytes: Int) {
        condition.lock()
        defer { condition.unlock() }
        guard bufferedBytes + bytes > options.maxBufferedBytes, bufferedBytes > 0 else { return }
        let attempts = completedAttempts
        flushRequested = true
        condition.broadcast()
        while bufferedBytes + bytes > options.maxBufferedBytes, bufferedBytes > 0, !writerExited {
            if lastAttemptFailed, completedAttempts > attempts { break }
            condition.wait()
        }
    }

    private func enqueue(_ row: PendingEvent) {
        let bytes = row.bytes
        condition.lock()
        if pending.isEmpty { oldestPendingAt = DispatchTime.now().uptimeNanoseconds }
        pending.append(row)
        bufferedBytes += bytes
        lastQueuedIndex = row.index
        // Wake the writer when it has something to wait for (the first event) or a batch is ready.
        if pending.count == 1 || pending.count == options.batchEvents || bufferedBytes >= options.maxBufferedBytes / 4 {
            condition.signal()
        }
        condition.unlock()
    }

    // MARK: Flushing and finishing

    package func flush() {
        condition.lock()
        defer { condition.unlock() }
        let target = lastQueuedIndex
        let attempts = completedAttempts
        if committedIndex < target {
            flushRequested = true
            condition.broadcast()
        }
        while committedIndex < target, !writerExited {
            if lastAttemptFailed, completedAttempts > attempts { break }
            condition.wait()
        }
    }

    package func finish(endState: SessionEndState, endedAt: Date? = nil) {
        // The append lock only marks the end (no append after it); the wait for the writer happens without it, so
        // that a reader of `appendedEventIndex` never waits for the disk.
        let first = appendLock.withLock { () -> Bool in
            defer { finished = true }
            return !finished
        }
        condition.lock()
        if first {
            stopRequest = (endState == .live ? .interrupted : endState, endedAt ?? Date())
            condition.broadcast()
        }
        while !writerExited || (!first && !lockReleased) { condition.wait() }
        condition.unlock()
        guard first else { return }
        sessionLock?.release(removingFile: true)
        sessionLock = nil
        condition.withLock {
            lockReleased = true
            condition.broadcast()
        }
    }

    // MARK: The writer thread

    private func writerLoop() {
        condition.lock()
        while true {
            if pending.isEmpty {
                flushRequested = false
                if stopRequest != nil { break }
                condition.wait()
                continue
            }
            if stopRequest != nil, failedSinceStop { break }
            let now = DispatchTime.now().uptimeNanoseconds
            if !flushRequested, stopRequest == nil {
                if let retryAt, now < retryAt {
                    _ = condition.wait(until: Date(timeIntervalSinceNow: Double(retryAt - now) / 1e9))
                    continue
                }
                let due = oldestPendingAt + UInt64(options.flushInterval * 1e9)
                if now < due, pending.count < options.batchEvents, bufferedBytes < options.maxBufferedBytes / 4 {
                    _ = condition.wait(until: Date(timeIntervalSinceNow: Double(due - now) / 1e9))
                    continue
                }
            }
            flushRequested = false
            let batch = pending
            pending = []
            condition.unlock()

            let outcome: SessionStoreError?
            do throws(SessionStoreError) {
                guard let writer else { throw .recordingFinished(id) }
                try writer.write(batch)
                outcome = nil
            } catch {
                outcome = error
            }

            condition.lock()
            completedAttempts += 1
            var committed: Int64?
            if let outcome {
                pending = batch + pending
                oldestPendingAt = DispatchTime.now().uptimeNanoseconds
                error = outcome
                lastAttemptFailed = true
                retryAt = DispatchTime.now().uptimeNanoseconds + UInt64(options.retryInterval * 1e9)
                if stopRequest != nil { failedSinceStop = true }
            } else {
                committedIndex = batch.last?.index ?? committedIndex
                committed = committedIndex
                bufferedBytes -= batch.reduce(0) { $0 + $1.bytes }
                error = nil
                lastAttemptFailed = false
                retryAt = nil
            }
            condition.broadcast()
            if let committed, let commitHandler {
                condition.unlock()
                commitHandler(committed)
                condition.lock()
            }
        }
        var stop = stopRequest
        if !pending.isEmpty {
            // The final attempt failed: these events cannot be written; count them, the error stays reported,
            // and the session is not called clean.
            droppedEvents += Int64(pending.count)
            bufferedBytes = 0
            pending = []
            stop?.endState = .interrupted
        }
        condition.unlock()

        var endError: SessionStoreError?
        if let stop, let writer {
            do throws(SessionStoreError) {
                try writer.markEnded(stop.endState, at: stop.at)
            } catch {
                endError = error
            }
        }
        writer?.close()
        writer = nil

        condition.lock()
        if let endError { error = endError }
        writerExited = true
        condition.broadcast()
        condition.unlock()
    }
}
