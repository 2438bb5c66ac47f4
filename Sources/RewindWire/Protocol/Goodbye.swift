/// `goodbye`: the app's last message on a connection it ends deliberately, sent only once everything it dispatched
/// was handed on. `seq` is the number of its last action on this connection (0 when it sent none). A daemon ends
/// the session `clean` only after a `goodbye` whose `seq` matches what it recorded; a connection that closes without
/// one ends the session `interrupted`.
///
/// Threading: a value type; safe to share.
public struct Goodbye: Sendable, Hashable {
    /// The `seq` of the app's last action on this connection (§3.2 of docs/PROTOCOL.md).
    public var seq: UInt64

    /// A goodbye message.
    public init(seq: UInt64) {
        self.seq = seq
    }

    func write(into o: inout JSONObject) {
        o["seq"] = .int(Int64(clamping: seq))
    }

    init(reading fields: WireFields) throws(WireError) {
        self.init(seq: try fields.actionNumber("seq"))
    }
}
