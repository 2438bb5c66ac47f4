/// `snapshot`: the app's full state, sent when the daemon asks (`resync`) or after a `dropped` range.
///
/// Threading: a value type; safe to share.
public struct Snapshot: Sendable, Hashable {
    /// The `seq` of the last action whose effect this state includes (0: before any action).
    public var seq: UInt64
    /// The full state.
    public var state: JSONValue
    /// Why it was sent (`resync`, `coalesced`, …), for display (optional).
    public var reason: String?

    /// A snapshot message.
    public init(seq: UInt64, state: JSONValue, reason: String? = nil) {
        self.seq = seq
        self.state = state
        self.reason = reason
    }

    func write(into o: inout JSONObject) {
        o["seq"] = .int(Int64(clamping: seq))
        o["state"] = state
        if let reason { o["reason"] = .string(reason) }
    }

    init(reading fields: WireFields) throws(WireError) {
        self.init(seq: try fields.actionNumber("seq"), state: try fields.requiredAllowingNull("state"),
                  reason: try fields.optionalString("reason"))
    }
}
