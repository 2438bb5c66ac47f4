/// `ack`: the daemon has recorded (or counted as lost) every action of this connection up to `seq`.
///
/// Sent at most every few tens of milliseconds while an app streams. An app that keeps what it sent for a resend
/// after a reset (docs/PROTOCOL.md §3.4) may forget everything up to `seq`: it reached the record. Apps that ignore
/// it lose nothing.
///
/// Threading: a value type; safe to share.
public struct Ack: Sendable, Hashable {
    /// The connection's `seq` (as the app numbered it on this connection) through which everything is recorded.
    public var seq: UInt64

    /// An acknowledgment through `seq`.
    public init(seq: UInt64) {
        self.seq = seq
    }

    func write(into o: inout JSONObject) {
        o["seq"] = .int(Int64(clamping: seq))
    }

    init(reading fields: WireFields) throws(WireError) {
        self.init(seq: try fields.uint64("seq"))
    }
}
