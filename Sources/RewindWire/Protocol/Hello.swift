/// `hello`: the first message on every app connection (and after every reconnect), with the full state.
///
/// Threading: a value type; safe to share.
public struct Hello: Sendable, Hashable {
    /// The protocol version the app speaks (``WireProtocol/version``).
    public var protocolVersion: Int
    /// Which app and which run of it.
    public var app: AppIdentity
    /// The app's full current state; later `action` patches apply to it.
    public var state: JSONValue
    /// The Swift type name of the state, for display (optional).
    public var stateType: String?
    /// The token, when the daemon requires one.
    public var token: String?
    /// What the app can do when asked: any of `jump`, `dispatch`, `replay` (unknown strings are ignored).
    public var capabilities: [String]
    /// How many actions the app had dispatched when `state` was taken (optional): the number of the last action
    /// `state` includes. Across a reconnect it lets the daemon say how many actions were never received. In protocol 2
    /// the events that follow carry action numbers after it; in protocol 1 they are numbered from 1 on each connection
    /// and the daemon adds this number to theirs.
    public var seq: UInt64?
    /// How many of the messages that follow this `hello` are sent again after a reconnect (wire member
    /// `resending`; absent = 0): the app's messages since `seq`, which may or may not have reached the daemon
    /// before the previous connection reset. The daemon ignores, among them, what it had already recorded.
    public var resending: UInt64?
    /// Protocol 2: the source locations the app run has numbered so far, in number order (the text of number 0
    /// first): the connection's table starts with them, so events sent again after a reconnect may carry the numbers
    /// they were first sent with (docs/PROTOCOL.md, "Source locations"). Empty or absent: a table that starts empty,
    /// as in protocol 1, which ignores this member.
    public var sources: [String]
    /// The number of the last action the app had dispatched when it sent this `hello` (optional; in the numbering of
    /// ``seq``): the actions up to it that arrive after this `hello` were dispatched before the connection was made
    /// (the timeline's "before connect"), those after it were dispatched while connected. Absent: the daemon tells by
    /// comparing the actions' times with the `hello`'s arrival.
    public var dispatched: UInt64?

    /// A hello message.
    public init(protocolVersion: Int = WireProtocol.version, app: AppIdentity, state: JSONValue,
                stateType: String? = nil, token: String? = nil, capabilities: [String] = [], seq: UInt64? = nil,
                resending: UInt64? = nil, sources: [String] = [], dispatched: UInt64? = nil) {
        self.protocolVersion = protocolVersion
        self.app = app
        self.state = state
        self.stateType = stateType
        self.token = token
        self.capabilities = capabilities
        self.seq = seq
        self.resending = resending
        self.sources = sources
        self.dispatched = dispatched
    }

    func write(into o: inout JSONObject) {
        o["protocol"] = .int(Int64(protocolVersion))
        o["app"] = app.json
        o["state"] = state
        if let stateType { o["stateType"] = .string(stateType) }
        if let token { o["token"] = .string(token) }
        o["capabilities"] = .array(capabilities.map { .string($0) })
        if let seq { o["seq"] = .int(Int64(clamping: seq)) }
        if let resending, resending > 0 { o["resending"] = .int(Int64(clamping: resending)) }
        if !sources.isEmpty { o["sources"] = .array(sources.map { .string($0) }) }
        if let dispatched { o["dispatched"] = .int(Int64(clamping: dispatched)) }
    }

    init(reading fields: WireFields) throws(WireError) {
        let version = try fields.int("protocol")
        guard version >= 1 else { throw WireFields.badField(fields.fieldPath("protocol"), "must be at least 1") }
        self.init(
            protocolVersion: version,
            app: try AppIdentity(reading: try fields.fields("app")),
            state: try fields.requiredAllowingNull("state"),
            stateType: try fields.optionalString("stateType"),
            token: try fields.optionalString("token"),
            capabilities: try fields.strings("capabilities") ?? [],
            seq: try fields.optionalActionNumber("seq"),
            resending: try fields.optionalUInt64("resending").flatMap { $0 > 0 ? $0 : nil },
            sources: try Self.sources(fields),
            dispatched: try fields.optionalActionNumber("dispatched"))
    }

    /// `sources`, checked against what a source table can hold (``SourceTable/capacity`` texts of at most
    /// ``SourceTable/maxTextBytes`` bytes, each once).
    private static func sources(_ fields: WireFields) throws(WireError) -> [String] {
        guard let texts = try fields.strings("sources") else { return [] }
        guard texts.count <= SourceTable.capacity else {
            throw WireFields.badField(fields.fieldPath("sources"),
                                      "at most \(SourceTable.capacity) locations, found \(texts.count)")
        }
        var seen = Set<String>()
        for (index, text) in texts.enumerated() {
            guard text.utf8.count <= SourceTable.maxTextBytes else {
                throw WireFields.badField(fields.fieldPath("sources") + "[\(index)]",
                                          "longer than \(SourceTable.maxTextBytes) bytes")
            }
            guard seen.insert(text).inserted else {
                throw WireFields.badField(fields.fieldPath("sources") + "[\(index)]", "listed twice")
            }
        }
        return texts
    }
}
