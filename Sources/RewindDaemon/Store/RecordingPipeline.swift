import Dispatch
import Foundation
import RewindWire

/// The machinery behind a `SessionRecording`: the appenders' side (index numbering, keyframe policy, the bounded
/// buffer and its overflow policy) and the writer thread that commits the buffer to the file in batches.
///
/// Threading (why `@unchecked Sendable` is safe):
/// - `appendLock` serializes appenders (`append`, `flush`'s and `finish`'s first steps) and guards the appender
///   state: `nextIndex`, `cursors`, `overflow`, `finished`. JSON serialization happens under it, off the writer.
/// - `condition` guards the state shared with the writer thread: `pending`, `bufferedBytes`, the indices, the
///   flush/stop requests and the error. It is held only for short bookkeeping, never during disk I/O.
/// - `writer` (the SQLite connection) is confined: the creating thread hands it over before the writer thread
///   starts, and from then on only the writer thread touches it.
/// - `sessionLock` is released by `finish` after the writer thread has exited.
/// Lock order: `appendLock` before `condition`.
final class RecordingPipeline: @unchecked Sendable {
    let id: SessionID
    let path: String
    let options: RecordingOptions

    // MARK: Appender state (appendLock)

    private let appendLock = NSLock()
    private var nextIndex: Int64 = 1
    private var cursors: [Int64: BranchCursor]
    private var overflow: [Int64: OverflowRun] = [:]
    private var finished = false

    /// Where a branch stands since its last keyframe. (It deliberately keeps no state: holding the app's last
    /// state would make the recorder copy it on its next change.)
    private struct BranchCursor {
        var eventsSinceKeyframe = 0
        var patchBytesSinceKeyframe = 0
    }

    /// Kinds that, without a patch, stand for a state replaced as a whole: they get a keyframe.
    private static let replacingKinds: Set<EventKind> = [.snapshot, .jump, .reconnect, .replay]

    /// Events of one branch coalesced while the buffer was full.
    private struct OverflowRun {
        var count: Int64 = 0
        var firstTime: Double
        var lastTime: Double
        var state: JSONValue
    }

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
    private var completedAttempts = 0
    private var lastAttemptFailed = false
    private var retryAt: UInt64?
    private var error: SessionStoreError?
    private var droppedEvents: Int64 = 0

    // MARK: Confined

    private var writer: SessionFileWriter?
    private var sessionLock: SessionLock?

    /// A pipeline for a new session (`initialState` given, numbering from 1), or for a resumed one
    /// (`initialState` nil, numbering after `lastIndex`; each branch's first event after resuming gets a keyframe).
    init(id: SessionID, path: String, options: RecordingOptions, writer: SessionFileWriter, lock: SessionLock,
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
    func start() {
        let thread = Thread { [self] in writerLoop() }
        thread.name = "rewind-writer \(id)"
        thread.start()
    }

    // MARK: Reading the shared state

    var lastError: SessionStoreError? {
        condition.withLock { error }
    }

    var committedEventIndex: Int64 {
        condition.withLock { committedIndex }
    }

    var appendedEventIndex: Int64 {
        appendLock.withLock { nextIndex - 1 }
    }

    var droppedEventCount: Int64 {
        condition.withLock { droppedEvents }
    }

    // MARK: Appending

    /// Appends one event (see `SessionRecording.append`). `forceKeyframe` writes the state after it whatever the
    /// policy says; `waitWhenFull` makes the call wait for room instead of coalescing (imports: a batch job that
    /// must not lose events, where waiting is fine).
    func append(_ event: NewEvent, stateAfter: JSONValue, forceKeyframe: Bool = false, waitWhenFull: Bool = false)
        -> Int64 {
        appendLock.lock()
        defer { appendLock.unlock() }
        if finished { return 0 }
        if !overflow.isEmpty {
            let roomy = condition.withLock { bufferedBytes <= options.maxBufferedBytes / 2 }
            guard roomy else {
                coalesce(event, stateAfter: stateAfter)
                return 0
            }
            enqueue(overflowMarkers())
        }

        let actionText = event.action?.serialized()
        let patchText = event.patch?.json.serialized()
        var row = PendingEvent(
            index: 0, branch: event.branch, appSeq: event.appSeq, time: event.time, kind: event.kind,
            label: event.label, action: actionText, patch: patchText, reducerMicros: event.reducerMicros,
            detail: event.detail, keyframe: nil, touches: event.patch.map { PatchTouches($0, stateAfter: stateAfter) })
        if needsKeyframe(event, patchBytes: patchText?.utf8.count ?? 0, force: forceKeyframe) {
            row.keyframe = stateAfter.serialized()
        }
        guard waitForRoom(row.bytes, indefinitely: waitWhenFull) else {
            coalesce(event, stateAfter: stateAfter)
            return 0
        }
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

    /// True when the buffer has room for `bytes` more, waiting up to `overflowWait` (or, `indefinitely`, until
    /// the writer makes room or fails a write) for the writer to make it.
    private func waitForRoom(_ bytes: Int, indefinitely: Bool) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if bufferedBytes + bytes <= options.maxBufferedBytes || bufferedBytes == 0 { return true }
        let deadline = Date(timeIntervalSinceNow: options.overflowWait)
        let attempts = completedAttempts
        flushRequested = true
        condition.broadcast()
        while bufferedBytes + bytes > options.maxBufferedBytes, bufferedBytes > 0, !writerExited {
            if indefinitely {
                if lastAttemptFailed, completedAttempts > attempts { break }
                condition.wait()
            } else if !condition.wait(until: deadline) {
                break
            }
        }
        return bufferedBytes + bytes <= options.maxBufferedBytes || bufferedBytes == 0
    }

    /// Folds an event that cannot be buffered into its branch's overflow run.
    private func coalesce(_ event: NewEvent, stateAfter: JSONValue) {
        if var run = overflow[event.branch] {
            run.count += 1
            run.lastTime = event.time
            run.state = stateAfter
            overflow[event.branch] = run
        } else {
            overflow[event.branch] = OverflowRun(count: 1, firstTime: event.time, lastTime: event.time, state: stateAfter)
        }
        condition.withLock { droppedEvents += 1 }
    }

    /// One `dropped` row per branch with coalesced events, each carrying a keyframe of the state after them.
    private func overflowMarkers() -> [PendingEvent] {
        var rows: [PendingEvent] = []
        for branch in overflow.keys.sorted() {
            guard let run = overflow[branch] else { continue }
            let bound = options.maxBufferedBytes >= 1 << 20
                ? "\(options.maxBufferedBytes >> 20) MiB" : "\(options.maxBufferedBytes >> 10) KiB"
            rows.append(PendingEvent(
                index: nextIndex, branch: branch, appSeq: nil, time: run.lastTime, kind: .dropped,
                label: nil, action: nil, patch: nil, reducerMicros: nil,
                detail: "\(run.count) event\(run.count == 1 ? " was" : "s were") not recorded: the disk writer fell "
                    + "behind and the recording's \(bound) buffer was full; this row holds the state after them",
                keyframe: run.state.serialized()))
            nextIndex += 1
            cursors[branch] = BranchCursor()
        }
        overflow = [:]
        return rows
    }

    private func enqueue(_ rows: [PendingEvent]) {
        for row in rows { enqueue(row) }
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

    func flush() {
        appendLock.withLock {
            if !overflow.isEmpty { enqueue(overflowMarkers()) }
        }
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

    func finish(endState: SessionEndState, endedAt: Date? = nil) {
        appendLock.lock()
        defer { appendLock.unlock() }
        guard !finished else { return }
        finished = true
        if !overflow.isEmpty { enqueue(overflowMarkers()) }
        condition.lock()
        stopRequest = (endState == .live ? .interrupted : endState, endedAt ?? Date())
        condition.broadcast()
        while !writerExited { condition.wait() }
        condition.unlock()
        sessionLock?.release(removingFile: true)
        sessionLock = nil
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
            if let outcome {
                pending = batch + pending
                oldestPendingAt = DispatchTime.now().uptimeNanoseconds
                error = outcome
                lastAttemptFailed = true
                retryAt = DispatchTime.now().uptimeNanoseconds + UInt64(options.retryInterval * 1e9)
                if stopRequest != nil { failedSinceStop = true }
            } else {
                committedIndex = batch.last?.index ?? committedIndex
                bufferedBytes -= batch.reduce(0) { $0 + $1.bytes }
                error = nil
                lastAttemptFailed = false
                retryAt = nil
            }
            condition.broadcast()
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
