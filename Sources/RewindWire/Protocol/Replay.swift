/// `replay`: reset to `state` (unless `reset` is false), run `actions` through the reducers (effects muted when
/// `muted`), and report the state after each in the `result`'s `states`.
///
/// With `reset` false the app continues from its current state and ignores `state` (sent as `null`): a paced
/// replay sends one such command per action.
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

    /// A replay command.
    public init(id: String, state: JSONValue, actions: [JSONValue], muted: Bool = true, reset: Bool = true) {
        self.id = id
        self.state = state
        self.actions = actions
        self.muted = muted
        self.reset = reset
    }

    func write(into o: inout JSONObject) {
        o["id"] = .string(id)
        o["state"] = reset ? state : .null
        o["actions"] = .array(actions)
        o["muted"] = .bool(muted)
        if !reset { o["reset"] = .bool(false) }
    }

    init(reading fields: WireFields) throws(WireError) {
        let reset = try fields.optionalBool("reset") ?? true
        self.init(id: try fields.string("id"), state: reset ? try fields.requiredAllowingNull("state") : .null,
                  actions: try fields.array("actions"), muted: try fields.optionalBool("muted") ?? true,
                  reset: reset)
    }
}
