/// `welcome`: the daemon's answer to `hello`.
///
/// Threading: a value type; safe to share.
public struct Welcome: Sendable, Hashable {
    /// The session id the daemon records this connection under.
    public var session: String
    /// The protocol version the daemon will speak on this connection.
    public var protocolVersion: Int
    /// True when the daemon continues an earlier session of the same app instance (a reconnect).
    public var resumed: Bool
    /// True when the daemon will acknowledge what it records on this connection (`ack`; the app named the `ack`
    /// capability). Written only when true.
    public var acknowledges: Bool

    /// A welcome message.
    public init(session: String, protocolVersion: Int = WireProtocol.version, resumed: Bool = false,
                acknowledges: Bool = false) {
        self.session = session
        self.protocolVersion = protocolVersion
        self.resumed = resumed
        self.acknowledges = acknowledges
    }

    func write(into o: inout JSONObject) {
        o["session"] = .string(session)
        o["protocol"] = .int(Int64(protocolVersion))
        o["resumed"] = .bool(resumed)
        if acknowledges { o["ack"] = .bool(true) }
    }

    init(reading fields: WireFields) throws(WireError) {
        self.init(session: try fields.string("session"), protocolVersion: try fields.int("protocol"),
                  resumed: try fields.optionalBool("resumed") ?? false,
                  acknowledges: try fields.optionalBool("ack") ?? false)
    }
}
