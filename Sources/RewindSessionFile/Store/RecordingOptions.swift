import Foundation

/// How a `SessionRecording` buffers, batches and keyframes. The defaults are the measured choice
/// (docs/SESSION-FORMAT.md, "Measured figures"); tests and benchmarks change them.
/// Threading: a plain value; `Sendable`.
package struct RecordingOptions: Sendable, Hashable {
    /// A keyframe (the full state) is written after this many events of a branch since its last keyframe.
    package var keyframeInterval: Int
    /// … or when the patch text written since the branch's last keyframe reaches this many bytes.
    package var keyframePatchBytes: Int
    /// The writer commits what is buffered at most this many seconds after it was appended (≤ 0.1).
    package var flushInterval: Double
    /// The writer commits at once when this many events are waiting.
    package var batchEvents: Int
    /// The memory an import holds for events not yet committed (text bytes plus a per-event overhead): past it the
    /// import waits for the writer. A live recording never waits and never discards: the daemon bounds it by reading
    /// an app no faster than its events are committed (`DaemonConfiguration.maxBacklogBytesPerApp`).
    package var maxBufferedBytes: Int
    /// After a failed commit (disk full, I/O error) the writer retries after this many seconds, or at `flush()`.
    package var retryInterval: Double
    /// A cap on the session file's size in bytes (nil: none); writes beyond it fail like a full disk.
    package var maxFileBytes: Int64?

    /// The measured defaults: a keyframe every 1000 events or 256 KiB of patches, commits every 50 ms,
    /// 16 MiB of buffered events at most.
    package init(
        keyframeInterval: Int = 1000,
        keyframePatchBytes: Int = 256 * 1024,
        flushInterval: Double = 0.05,
        batchEvents: Int = 4096,
        maxBufferedBytes: Int = 16 * 1024 * 1024,
        retryInterval: Double = 1.0,
        maxFileBytes: Int64? = nil
    ) {
        self.keyframeInterval = max(1, keyframeInterval)
        self.keyframePatchBytes = max(1, keyframePatchBytes)
        self.flushInterval = min(max(0, flushInterval), 0.1)
        self.batchEvents = max(1, batchEvents)
        self.maxBufferedBytes = max(1, maxBufferedBytes)
        self.retryInterval = max(0.001, retryInterval)
        self.maxFileBytes = maxFileBytes
    }
}
