/// `dropped`: the per-action states of actions `from...to` were coalesced away under load. Those actions are
/// still sent (with empty patches); the state after `to` follows in a `snapshot`.
///
/// Threading: a value type; safe to share.
public struct Dropped: Sendable, Hashable {
    /// The first `seq` of the range.
    public var from: UInt64
    /// The last `seq` of the range (inclusive).
    public var to: UInt64

    /// A dropped range.
    public init(from: UInt64, to: UInt64) {
        self.from = from
        self.to = to
    }

    func write(into o: inout JSONObject) {
        o["from"] = .int(Int64(clamping: from))
        o["to"] = .int(Int64(clamping: to))
    }

    init(reading fields: WireFields) throws(WireError) {
        let from = try fields.uint64("from"), to = try fields.uint64("to")
        guard from <= to else { throw WireFields.badField(fields.fieldPath("to"), "must not be less than 'from'") }
        self.init(from: from, to: to)
    }
}
