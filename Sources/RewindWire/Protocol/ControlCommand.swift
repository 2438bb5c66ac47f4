/// What a control client (the `rewind` CLI) asks the daemon to do. Wire form: the `command` string and the
/// `args` object of a `request` (see ``ControlRequest``).
///
/// Threading: a value type; safe to share.
public enum ControlCommand: Sendable, Hashable {
    /// `sessions`: list the sessions. Result: `{"sessions": [...]}` of ``ControlSessionInfo`` objects.
    case sessions
    /// `tail {session?}`: stream the live events of one session (or of all live sessions when `nil`) as
    /// `event` messages until `untail` or disconnect. Result: `{"tailing": session or "*"}`.
    case tail(session: String?)
    /// `untail`: stop streaming events. Result: `{"tailing": null}`.
    case untail
    /// `jump {session, seq}`: send the live app the state after event `seq`. Result: `{"ok": true}`.
    case jump(session: String, seq: UInt64)
    /// `dispatch {session, action}`: have the live app dispatch this action (its `Codable` encoding).
    /// Result: `{"ok": true}`.
    case dispatch(session: String, action: JSONValue)
    /// `replay {session, target?, fromSeq?, toSeq?}`: take the actions of recorded session `session`
    /// (from `fromSeq`, default 1, to `toSeq`, default the last) and replay them into live session `target`
    /// (default: `session` itself), starting from the recorded state before `fromSeq`.
    /// Result: `{"ok": true, "states": n}`, how many states the app reported.
    case replay(session: String, target: String?, fromSeq: UInt64?, toSeq: UInt64?)
    /// Any other command, for extensions: the daemon answers `unknown_type` if it does not know it.
    case other(name: String, args: JSONObject)

    /// The `command` string.
    public var name: String {
        switch self {
        case .sessions: return "sessions"
        case .tail: return "tail"
        case .untail: return "untail"
        case .jump: return "jump"
        case .dispatch: return "dispatch"
        case .replay: return "replay"
        case .other(let name, _): return name
        }
    }

    /// The `args` object.
    public var args: JSONObject {
        var o = JSONObject()
        switch self {
        case .sessions, .untail:
            break
        case .tail(let session):
            if let session { o["session"] = .string(session) }
        case .jump(let session, let seq):
            o["session"] = .string(session)
            o["seq"] = .int(Int64(clamping: seq))
        case .dispatch(let session, let action):
            o["session"] = .string(session)
            o["action"] = action
        case .replay(let session, let target, let fromSeq, let toSeq):
            o["session"] = .string(session)
            if let target { o["target"] = .string(target) }
            if let fromSeq { o["fromSeq"] = .int(Int64(clamping: fromSeq)) }
            if let toSeq { o["toSeq"] = .int(Int64(clamping: toSeq)) }
        case .other(_, let args):
            o = args
        }
        return o
    }

    /// Reads a command from its name and `args` (paths in errors start with `request.args`).
    init(name: String, args: WireFields) throws(WireError) {
        switch name {
        case "sessions": self = .sessions
        case "tail": self = .tail(session: try args.optionalString("session"))
        case "untail": self = .untail
        case "jump": self = .jump(session: try args.string("session"), seq: try args.uint64("seq"))
        case "dispatch": self = .dispatch(session: try args.string("session"), action: try args.requiredAllowingNull("action"))
        case "replay":
            self = .replay(session: try args.string("session"), target: try args.optionalString("target"),
                           fromSeq: try args.optionalUInt64("fromSeq"), toSeq: try args.optionalUInt64("toSeq"))
        default: self = .other(name: name, args: args.object)
        }
    }
}
