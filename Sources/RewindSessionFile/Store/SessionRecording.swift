import Foundation
import RewindWire

/// The writer of one live session: the recorder appends events, a writer thread commits them.
///
/// - `append` never waits for the disk: it numbers the event, serializes it, decides whether it gets a keyframe
///   and puts it in a bounded buffer. The writer thread commits the buffer in one transaction at most
///   `RecordingOptions.flushInterval` (≤ 100 ms) after an event was appended, or sooner when a batch is full.
///   A `kill -9` therefore loses at most the events of the last 100 ms.
/// - Nothing appended is ever discarded while the recording runs: an event waits in the buffer until it is committed,
///   however long the disk stalls or fails. The buffer is bounded by its callers: the daemon stops reading an app
///   whose events wait for the disk (its bytes stay charged to the connection until committed, see `AppIngest`),
///   and imports wait for room (`RecordingOptions.maxBufferedBytes`). `setCommitHandler` tells the session of every
///   commit, which is when it acknowledges the app's messages (`ack` means committed).
/// - Errors (disk full, unwritable file): reported through `lastError`; the batch stays in memory and the
///   writer retries every `retryInterval` seconds (and at `flush`); nothing committed is lost.
/// - The recording holds the session's lock (`<id>.lock`, `flock`) until `finish`, so other processes can tell a
///   live session from one whose recorder died.
///
/// Threading: every method may be called from any thread. Appends are numbered in the order they are made;
/// `flush` and `finish` block the caller (never the appenders for long). Deallocating a recording that was
/// not finished finishes it as `.interrupted`.
package final class SessionRecording: Sendable {
    private let pipeline: RecordingPipeline

    /// The session's id.
    package var id: SessionID { pipeline.id }

    /// The session file being written.
    package let fileURL: URL

    package init(pipeline: RecordingPipeline, fileURL: URL) {
        self.pipeline = pipeline
        self.fileURL = fileURL
        pipeline.start()
    }

    deinit {
        pipeline.finish(endState: .interrupted)
    }

    /// Appends an event. `stateAfter` is the full state after it (a `JSONValue` copy is cheap); the recording
    /// decides when to write a keyframe from it (every `keyframeInterval` events or `keyframePatchBytes` of patches
    /// of a branch, at a branch's first event, and for a `snapshot`/`jump`/`reconnect`/`replay` without a patch),
    /// and `forceKeyframe` makes this event get one: required when its state does not follow from its patch (see
    /// `NewEvent`). The recording keeps no reference to `stateAfter` unless it writes it, so the caller's next
    /// change to its state is made in place.
    /// Never blocks on disk: buffered, the writer thread commits batches at least every 100 ms. Returns the
    /// event's index (1, 2, 3… over all branches, in the order appended), or 0 once the recording is finished.
    @discardableResult
    package func append(_ event: NewEvent, stateAfter: JSONValue, forceKeyframe: Bool = false) -> Int64 {
        pipeline.append(event, stateAfter: stateAfter, forceKeyframe: forceKeyframe)
    }

    /// `append` for imports: may force a keyframe, and waits for room in the buffer.
    package func appendImported(_ event: NewEvent, stateAfter: JSONValue, forceKeyframe: Bool) -> Int64 {
        pipeline.append(event, stateAfter: stateAfter, forceKeyframe: forceKeyframe, waitWhenFull: true)
    }

    /// `finish` with a given end time (imports keep the original session's).
    package func finish(endState: SessionEndState, endedAt: Date?) {
        pipeline.finish(endState: endState, endedAt: endedAt)
    }

    /// Blocks until everything appended so far is committed, or until the writer reports an error
    /// (`lastError`) on an attempt made after this call.
    package func flush() {
        pipeline.flush()
    }

    /// Flushes, records how the session ended (`.clean` or `.interrupted`; `.live` counts as `.interrupted`)
    /// and its end time, closes the file and releases the session's lock. Later appends are ignored.
    /// Idempotent; a second call returns once the first is done.
    package func finish(endState: SessionEndState) {
        pipeline.finish(endState: endState)
    }

    /// The writer's most recent failure (disk full, unwritable), or nil once a later commit succeeded.
    /// While it is set, events wait in memory (up to the buffer's bound) and the writer retries.
    package var lastError: SessionStoreError? { pipeline.lastError }

    /// The index of the last event committed to the file (readers can see up to here).
    package var committedIndex: Int64 { pipeline.committedEventIndex }

    /// The index of the last event appended (committed or still buffered).
    package var lastIndex: Int64 { pipeline.appendedEventIndex }

    /// How many appended events never reached the file because the final write, at `finish`, failed (the disk stayed
    /// full or unwritable); they were never acknowledged to an app.
    package var droppedEventCount: Int64 { pipeline.droppedEventCount }

    /// Bytes of events appended and not yet committed.
    package var bufferedBytes: Int { pipeline.bufferedByteCount }

    /// Sets the handler told the index of the last committed event after every commit, on the writer thread with no
    /// lock of the recording held. Set it once, before the first `append`.
    package func setCommitHandler(_ handler: @escaping @Sendable (Int64) -> Void) {
        pipeline.setCommitHandler(handler)
    }
}
