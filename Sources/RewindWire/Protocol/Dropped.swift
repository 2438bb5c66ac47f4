/// `dropped`: the per-action states of actions `from...to` were coalesced away under load. Those actions are
/// still sent (with empty patches), except ``actionsLost`` of them that the app could not keep at all (their numbers
/// are skipped); the state after `to` follows in a `snapshot`.
///
/// Threading: a value type; safe to share.
public struct Dropped: Sendable, Hashable {
    /// The first `seq` of the range.
    public var from: UInt64
    /// The last `seq` of the range (inclusive).
    public var to: UInt64
    /// How many actions of the range the app dropped entirely and never sends (wire member `actionsLost`,
    /// omitted when 0; a receiver that does not know it sees an ordinary range).
    public var actionsLost: UInt64

    /// A dropped range.
    public init(from: UInt64, to: UInt64, actionsLost: UInt64 = 0) {
        self.from = from
        self.to = to
        self.actionsLost = actionsLost
    }

    func write(into o: inout JSONObject) {
        o["from"] = .int(Int64(clamping: from))
        o["to"] = .int(Int64(clamping: to))
        if actionsLost > 0 { o["actionsLost"] = .int(Int64(clamping: actionsLost)) }
    }

    init(reading fields: WireFields) throws(WireError) {
        let from = try fields.actionNumber("from"), to = try fields.actionNumber("to")
        guard from <= to else { throw WireFields.badField(fields.fieldPath("to"), "must not be less than 'from'") }
        let lost = try fields.optionalUInt64("actionsLost") ?? 0
        guard lost <= to - from + 1 else {
            throw WireFields.badField(fields.fieldPath("actionsLost"), "must not exceed the range's length")
        }
        self.init(from: from, to: to, actionsLost: lost)
    }
}
