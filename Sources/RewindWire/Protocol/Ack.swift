/// `ack`: the daemon has recorded (or counted as lost) every action up to `seq`, committed to the session file.
///
/// Sent at most every few tens of milliseconds while an app streams. An app that keeps what it sent for a resend
/// after a reset (docs/PROTOCOL.md §3.4) may forget everything up to `seq`: it reached the record. Apps that ignore
/// it lose nothing.
///
/// Threading: a value type; safe to share.
public struct Ack: Sendable, Hashable {
    /// The action number through which everything is committed: the app run's own number in protocol 2, the
    /// connection's `seq` in protocol 1.
    public var seq: UInt64
    /// How many of the app run's actions the committed record counts as lost so far (wire member `lost`; absent
    /// when the daemon does not say): an app that reports its actions delivered must not while this is above zero.
    public var lost: UInt64?

    /// An acknowledgment through `seq`, with the run's lost actions so far.
    public init(seq: UInt64, lost: UInt64? = nil) {
        self.seq = seq
        self.lost = lost
    }

    func write(into o: inout JSONObject) {
        o["seq"] = .int(Int64(clamping: seq))
        if let lost { o["lost"] = .int(Int64(clamping: lost)) }
    }

    init(reading fields: WireFields) throws(WireError) {
        self.init(seq: try fields.uint64("seq"), lost: try fields.optionalUInt64("lost"))
    }
}
