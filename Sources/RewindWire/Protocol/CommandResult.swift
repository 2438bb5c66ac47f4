/// `result`: the app's answer to a daemon command (`jump`, `dispatch`, `replay`), matched by `id`.
///
/// Threading: a value type; safe to share.
public struct CommandResult: Sendable, Hashable {
    /// The `id` of the command answered.
    public var id: String
    /// Whether the command was carried out.
    public var ok: Bool
    /// Why not, when `ok` is false.
    public var error: String?
    /// For `replay`: the state after each replayed action, in order.
    public var states: [JSONValue]?
    /// The app's state after the command (optional).
    public var state: JSONValue?

    /// A result message.
    public init(id: String, ok: Bool, error: String? = nil, states: [JSONValue]? = nil, state: JSONValue? = nil) {
        self.id = id
        self.ok = ok
        self.error = error
        self.states = states
        self.state = state
    }

    func write(into o: inout JSONObject) {
        o["id"] = .string(id)
        o["ok"] = .bool(ok)
        if let error { o["error"] = .string(error) }
        if let states { o["states"] = .array(states) }
        if let state { o["state"] = state }
    }

    init(reading fields: WireFields) throws(WireError) {
        self.init(id: try fields.string("id"), ok: try fields.bool("ok"), error: try fields.optionalString("error"),
                  states: try fields.optionalArray("states"), state: fields.object["state"])
    }
}
