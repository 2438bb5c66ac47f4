/// An event appended to a recording and not yet committed: already serialized, so that the writer thread only
/// talks to SQLite and the buffer's size in bytes is exact.
/// Threading: a plain value moved from the appending thread to the writer thread under the recording's lock.
struct PendingEvent: Sendable {
    var index: Int64
    var branch: Int64
    var appSeq: Int64?
    var time: Double
    var kind: EventKind
    var label: String?
    var action: String?
    var patch: String?
    var reducerMicros: Double?
    var detail: String?
    /// The full state after the event, when this event gets a keyframe.
    var keyframe: String?

    /// What this event holds in memory: its text plus a fixed overhead for the row.
    var bytes: Int {
        128 + (label?.utf8.count ?? 0) + (action?.utf8.count ?? 0) + (patch?.utf8.count ?? 0)
            + (detail?.utf8.count ?? 0) + (keyframe?.utf8.count ?? 0)
    }
}
