/// A message from the daemon to an app. Wire form: one JSON object per WebSocket text frame, with a
/// `"type"` field naming the case (see docs/PROTOCOL.md).
///
/// Threading: a value type; safe to share.
public enum DaemonMessage: Sendable, Hashable {
    /// `welcome`: the answer to `hello`.
    case welcome(Welcome)
    /// `jump`: replace the app's state.
    case jump(Jump)
    /// `dispatch`: decode and dispatch an action.
    case dispatch(DispatchCommand)
    /// `replay`: reset and run actions with effects muted.
    case replay(Replay)
    /// `resync`: send a `snapshot`.
    case resync(Resync)
    /// `error`: something the app sent was refused.
    case error(WireError)
    /// `ack`: everything up to a `seq` of this connection is recorded.
    case ack(Ack)

    /// The `"type"` string of this message.
    public var typeName: String {
        switch self {
        case .welcome: return "welcome"
        case .jump: return "jump"
        case .dispatch: return "dispatch"
        case .replay: return "replay"
        case .resync: return "resync"
        case .error: return "error"
        case .ack: return "ack"
        }
    }

    /// The JSON form (an object with `"type"` first).
    public var json: JSONValue {
        var o = JSONObject()
        o["type"] = .string(typeName)
        switch self {
        case .welcome(let m): m.write(into: &o)
        case .jump(let m): m.write(into: &o)
        case .dispatch(let m): m.write(into: &o)
        case .replay(let m): m.write(into: &o)
        case .resync(let m): m.write(into: &o)
        case .ack(let m): m.write(into: &o)
        case .error(let e):
            o["code"] = .string(e.code.rawValue)
            o["message"] = .string(e.message)
            if let field = e.field { o["field"] = .string(field) }
        }
        return .object(o)
    }

    /// Reads the JSON form; errors as for ``AppMessage/init(json:)``.
    public init(json: JSONValue) throws(WireError) {
        let (type, fields) = try WireEnvelope.open(json)
        switch type {
        case "welcome": self = .welcome(try Welcome(reading: fields))
        case "jump": self = .jump(try Jump(reading: fields))
        case "dispatch": self = .dispatch(try DispatchCommand(reading: fields))
        case "replay": self = .replay(try Replay(reading: fields))
        case "resync": self = .resync(try Resync(reading: fields))
        case "error": self = .error(try WireError(reading: fields))
        case "ack": self = .ack(try Ack(reading: fields))
        default: throw WireEnvelope.unknownType(type, expecting: "a daemon message")
        }
    }
}
