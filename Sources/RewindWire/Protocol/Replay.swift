/// `replay`: reset to `state`, run `actions` through the reducers (effects muted when `muted`), and report
/// the state after each in the `result`'s `states`.
///
/// Threading: a value type; safe to share.
public struct Replay: Sendable, Hashable {
    /// Command id, echoed in the `result`.
    public var id: String
    /// The state to start from.
    public var state: JSONValue
    /// The actions' `Codable` encodings, in order.
    public var actions: [JSONValue]
    /// Whether effects are muted while replaying (normally true: their results are already recorded).
    public var muted: Bool

    /// A replay command.
    public init(id: String, state: JSONValue, actions: [JSONValue], muted: Bool = true) {
        self.id = id
        self.state = state
        self.actions = actions
        self.muted = muted
    }

    func write(into o: inout JSONObject) {
        o["id"] = .string(id)
        o["state"] = state
        o["actions"] = .array(actions)
        o["muted"] = .bool(muted)
    }

    init(reading fields: WireFields) throws(WireError) {
        self.init(id: try fields.string("id"), state: try fields.requiredAllowingNull("state"),
                  actions: try fields.array("actions"), muted: try fields.optionalBool("muted") ?? true)
    }
}
