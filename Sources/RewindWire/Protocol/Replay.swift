/// `replay`: reset to `state` (unless `reset` is false), run `actions` through the reducers (effects muted when
/// `muted`), and report the state after each in the `result`'s `states`.
///
/// With `reset` false the app continues from its current state and ignores `state` (sent as `null`): a paced
/// replay sends one such command per action.
///
/// With `portions` true the app answers with patches instead of full states, in as many `result` messages as
/// keep each under ``Replay/portionBytes`` (PROTOCOL.md, `replay`): whatever the state's size and the number of
/// actions, no answer nears the message limit. An app older than `portions` ignores it and answers with one
/// `result` carrying every state, which the daemon still reads.
///
/// Threading: a value type; safe to share.
public struct Replay: Sendable, Hashable {
    /// Command id, echoed in the `result`.
    public var id: String
    /// The state to start from (ignored, and `null` on the wire, when `reset` is false).
    public var state: JSONValue
    /// The actions' `Codable` encodings, in order.
    public var actions: [JSONValue]
    /// Whether effects are muted while replaying (normally true: their results are already recorded).
    public var muted: Bool
    /// Whether the app first resets to `state` (true, the default) or continues from its current state (false).
    public var reset: Bool
    /// Whether the app answers in portions of patches (true) or with one `result` carrying every state (false,
    /// the default and the only form apps older than this member know).
    public var portions: Bool

    /// The most patch text one portion of an answer carries (1 MiB): a portion closes once it reaches this, so a
    /// portion is at most this plus one action's patch, plus in the first the state the replay started from.
    public static let portionBytes = 1 << 20

    /// A replay command.
    public init(id: String, state: JSONValue, actions: [JSONValue], muted: Bool = true, reset: Bool = true,
                portions: Bool = false) {
        self.id = id
        self.state = state
        self.actions = actions
        self.muted = muted
        self.reset = reset
        self.portions = portions
    }

    func write(into o: inout JSONObject) {
        o["id"] = .string(id)
        o["state"] = reset ? state : .null
        o["actions"] = .array(actions)
        o["muted"] = .bool(muted)
        if !reset { o["reset"] = .bool(false) }
        if portions { o["portions"] = .bool(true) }
    }

    init(reading fields: WireFields) throws(WireError) {
        let reset = try fields.optionalBool("reset") ?? true
        self.init(id: try fields.string("id"), state: reset ? try fields.requiredAllowingNull("state") : .null,
                  actions: try fields.array("actions"), muted: try fields.optionalBool("muted") ?? true,
                  reset: reset, portions: try fields.optionalBool("portions") ?? false)
    }
}
