/// An event appended to a recording and not yet committed: already serialized, so that the writer thread only
/// talks to SQLite and the buffer's size in bytes is exact.
/// Threading: a plain value moved from the appending thread to the writer thread under the recording's lock.
package struct PendingEvent: Sendable {
    package var index: Int64
    package var branch: Int64
    package var appSeq: Int64?
    package var time: Double
    package var kind: EventKind
    package var label: String?
    package var action: String?
    package var patch: String?
    package var reducerMicros: Double?
    package var detail: String?
    /// The `unknown` column: why the state after the row is unknown (nil when known).
    package var unknown: String?
    /// The `unknown_cause` column: the row that made it unknown.
    package var unknownCause: Int64?
    /// The `meaning` column's JSON text (nil when the row says nothing more).
    package var meaning: String?
    /// The full state after the event, when this event gets a keyframe.
    package var keyframe: String?
    /// What the patch changes, for the file's path index (nil without a patch).
    package var touches: PatchTouches? = nil

    /// What this event holds in memory, approximately: the row itself (twice, for the buffer array's spare
    /// capacity) and each string's heap allocation (strings of up to 15 UTF-8 bytes are stored inline).
    package var bytes: Int {
        func heap(_ text: String?) -> Int {
            guard let count = text?.utf8.count, count > 15 else { return 0 }
            return (count + 32 + 15) & ~15
        }
        return 2 * MemoryLayout<PendingEvent>.stride + heap(label) + heap(action) + heap(patch) + heap(detail) + heap(meaning)
            + heap(keyframe) + (touches.map { t in t.paths.reduce(0) { $0 + 32 + $1.utf8.count } + 48 * t.reshapes.count } ?? 0)
    }
}
