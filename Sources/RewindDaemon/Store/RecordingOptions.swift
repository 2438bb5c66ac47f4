import Foundation

/// How a `SessionRecording` buffers, batches and keyframes. The defaults are the measured choice
/// (docs/SESSION-FORMAT.md, "Measured figures"); tests and benchmarks change them.
/// Threading: a plain value; `Sendable`.
public struct RecordingOptions: Sendable, Hashable {
    /// A keyframe (the full state) is written after this many events of a branch since its last keyframe.
    public var keyframeInterval: Int
    /// … or when the patch text written since the branch's last keyframe reaches this many bytes.
    public var keyframePatchBytes: Int
    /// The writer commits what is buffered at most this many seconds after it was appended (≤ 0.1).
    public var flushInterval: Double
    /// The writer commits at once when this many events are waiting.
    public var batchEvents: Int
    /// The bound on memory held for events not yet committed (text bytes plus a per-event overhead). When it is
    /// reached, `append` waits up to `overflowWait` for the writer once, then coalesces what it cannot buffer
    /// into one `dropped` event carrying the state after them (see `SessionRecording`).
    public var maxBufferedBytes: Int
    /// How long (seconds) the first `append` that finds the buffer full waits for room before events are coalesced.
    public var overflowWait: Double
    /// After a failed commit (disk full, I/O error) the writer retries after this many seconds, or at `flush()`.
    public var retryInterval: Double
    /// A cap on the session file's size in bytes (nil: none); writes beyond it fail like a full disk.
    public var maxFileBytes: Int64?

    /// The measured defaults: a keyframe every 1000 events or 256 KiB of patches, commits every 50 ms,
    /// 16 MiB of buffered events at most.
    public init(
        keyframeInterval: Int = 1000,
        keyframePatchBytes: Int = 256 * 1024,
        flushInterval: Double = 0.05,
        batchEvents: Int = 4096,
        maxBufferedBytes: Int = 16 * 1024 * 1024,
        overflowWait: Double = 0.25,
        retryInterval: Double = 1.0,
        maxFileBytes: Int64? = nil
    ) {
        self.keyframeInterval = max(1, keyframeInterval)
        self.keyframePatchBytes = max(1, keyframePatchBytes)
        self.flushInterval = min(max(0, flushInterval), 0.1)
        self.batchEvents = max(1, batchEvents)
        self.maxBufferedBytes = max(1, maxBufferedBytes)
        self.overflowWait = max(0, overflowWait)
        self.retryInterval = max(0.001, retryInterval)
        self.maxFileBytes = maxFileBytes
    }
}
