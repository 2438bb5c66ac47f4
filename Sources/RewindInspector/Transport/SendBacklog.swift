/// The bytes a transport has accepted from `send` and not yet seen written: what `InspectorTransport.queuedBytes`
/// reports, and the cap `send` enforces.
///
/// The rule is the libwebsockets client's: a message is refused when it would take the backlog over `limit`,
/// except that a single message larger than the limit is accepted when nothing else is queued (so that one large
/// state is never refused for ever).
///
/// Threading: a plain value; the transport keeps it behind its lock.
struct SendBacklog: Sendable {
    /// The most bytes queued at once (a single larger message excepted).
    let limit: Int
    /// Bytes accepted and not yet written.
    private(set) var bytes = 0

    /// An empty backlog capped at `limit` bytes.
    init(limit: Int) {
        self.limit = limit
    }

    /// Counts a message of `count` bytes in, or refuses it (returning false, counting nothing).
    mutating func admit(_ count: Int) -> Bool {
        guard bytes == 0 || bytes + count <= limit else { return false }
        bytes += count
        return true
    }

    /// Counts out a message of `count` bytes that was written (or dropped).
    mutating func release(_ count: Int) {
        bytes = max(0, bytes - count)
    }
}
