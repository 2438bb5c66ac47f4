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
    /// `skip {session, seq}`: toggle whether action event `seq` (on the main line) of live session `session` is
    /// skipped; the app recomputes every later state without the skipped actions, recorded as a new branch.
    /// Result: `{"ok": true, "skipped": [uint], "branch": uint, "states": n}` (`branch` 0 and no states when
    /// nothing is skipped any more: the app is back on the main line).
    case skip(session: String, seq: UInt64)
    /// `branch {session, branch}`: put the live app into the last state of branch `branch` (0 = the main line,
    /// as of its last action). Result: `{"ok": true, "branch": uint, "seq": uint}` (the event whose state it is).
    case branch(session: String, branch: UInt64)
    /// `recordedActions {session, fromSeq?, toSeq?, withState?}`: the recorded state before `fromSeq` (default 1;
    /// left out with `withState` false, for a later page) and the main line's actions `fromSeq` … `toSeq` (default:
    /// the last), one page at a time, for a client that paces a replay itself.
    /// Result: `{"state"?: JSON, "actions": [{"seq": uint, "time": number, "label"?: string, "action": JSON}],
    /// "stateType"?: string, "next"?: uint}`; `next` is the `fromSeq` of the next page when the range goes on.
    case recordedActions(session: String, fromSeq: UInt64?, toSeq: UInt64?, withState: Bool = true)
    /// `replayActions {target, state?, actions}`: send live session `target`'s app a `replay` of `actions`
    /// (effects muted), reset to `state` first when it is given, continuing from its current state otherwise.
    /// Result: `{"ok": true, "states": n}`.
    case replayActions(target: String, state: JSONValue?, actions: [JSONValue])
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
        case .skip: return "skip"
        case .branch: return "branch"
        case .recordedActions: return "recordedActions"
        case .replayActions: return "replayActions"
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
        case .skip(let session, let seq):
            o["session"] = .string(session)
            o["seq"] = .int(Int64(clamping: seq))
        case .branch(let session, let branch):
            o["session"] = .string(session)
            o["branch"] = .int(Int64(clamping: branch))
        case .recordedActions(let session, let fromSeq, let toSeq, let withState):
            o["session"] = .string(session)
            if let fromSeq { o["fromSeq"] = .int(Int64(clamping: fromSeq)) }
            if let toSeq { o["toSeq"] = .int(Int64(clamping: toSeq)) }
            if !withState { o["withState"] = false }
        case .replayActions(let target, let state, let actions):
            o["target"] = .string(target)
            if let state { o["state"] = state }
            o["actions"] = .array(actions)
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
        case "skip": self = .skip(session: try args.string("session"), seq: try args.uint64("seq"))
        case "branch": self = .branch(session: try args.string("session"), branch: try args.uint64("branch"))
        case "recordedActions":
            self = .recordedActions(session: try args.string("session"), fromSeq: try args.optionalUInt64("fromSeq"),
                                    toSeq: try args.optionalUInt64("toSeq"),
                                    withState: try args.optionalBool("withState") ?? true)
        case "replayActions":
            // A present `state` (even `null`, a valid state) resets the app; an absent one continues.
            self = .replayActions(target: try args.string("target"), state: args.object["state"],
                                  actions: try args.array("actions"))
        default: self = .other(name: name, args: args.object)
        }
    }
}
