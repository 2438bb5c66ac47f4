/// One entry of the `sessions` command's result.
///
/// Threading: a value type; safe to share.
public struct ControlSessionInfo: Sendable, Hashable {
    /// The session id.
    public var session: String
    /// The app it records.
    public var app: AppIdentity
    /// True while the app is connected.
    public var live: Bool
    /// When the session started, in seconds since 1970.
    public var startedAt: Double
    /// When it ended (nil while live, or when it did not end cleanly).
    public var endedAt: Double?
    /// The highest `seq` recorded (0 when no action yet).
    public var lastSeq: UInt64
    /// The state's Swift type name, when the app sent one.
    public var stateType: String?
    /// True when the session did not end cleanly (the daemon stopped while it was live).
    public var interrupted: Bool
    /// What the live app offered in its `hello` (`jump`, `dispatch`, `replay`, `batch`, `ack`: `WireCapability`),
    /// so that a control client can say why a command is unavailable before sending it; nil when the session is not
    /// live, or the daemon predates the field.
    public var capabilities: [String]?

    /// A session summary.
    public init(session: String, app: AppIdentity, live: Bool, startedAt: Double, endedAt: Double? = nil,
                lastSeq: UInt64, stateType: String? = nil, interrupted: Bool = false, capabilities: [String]? = nil) {
        self.session = session
        self.app = app
        self.live = live
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.lastSeq = lastSeq
        self.stateType = stateType
        self.interrupted = interrupted
        self.capabilities = capabilities
    }

    /// The JSON form: `{"session", "app": {name, instance}, "live", "startedAt", "endedAt"?, "lastSeq",
    /// "stateType"?, "interrupted", "capabilities"?}`.
    public var json: JSONValue {
        var o = JSONObject()
        o["session"] = .string(session)
        o["app"] = app.json
        o["live"] = .bool(live)
        o["startedAt"] = .double(startedAt)
        if let endedAt { o["endedAt"] = .double(endedAt) }
        o["lastSeq"] = .int(Int64(clamping: lastSeq))
        if let stateType { o["stateType"] = .string(stateType) }
        o["interrupted"] = .bool(interrupted)
        if let capabilities { o["capabilities"] = .array(capabilities.map { .string($0) }) }
        return .object(o)
    }

    /// Reads the JSON form.
    public init(json: JSONValue) throws(WireError) {
        let fields = try WireFields(json, path: "session")
        self.init(
            session: try fields.string("session"),
            app: try AppIdentity(reading: try fields.fields("app")),
            live: try fields.bool("live"),
            startedAt: try fields.double("startedAt"),
            endedAt: try fields.optionalDouble("endedAt"),
            lastSeq: try fields.uint64("lastSeq"),
            stateType: try fields.optionalString("stateType"),
            interrupted: try fields.optionalBool("interrupted") ?? false,
            capabilities: try fields.strings("capabilities"))
    }
}
