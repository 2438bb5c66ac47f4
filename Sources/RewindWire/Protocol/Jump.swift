/// `jump`: replace the app's state with this one (time travel). The app answers with a `result`.
///
/// Threading: a value type; safe to share.
public struct Jump: Sendable, Hashable {
    /// Command id, echoed in the `result`.
    public var id: String
    /// The state to show.
    public var state: JSONValue

    /// A jump command.
    public init(id: String, state: JSONValue) {
        self.id = id
        self.state = state
    }

    func write(into o: inout JSONObject) {
        o["id"] = .string(id)
        o["state"] = state
    }

    init(reading fields: WireFields) throws(WireError) {
        self.init(id: try fields.string("id"), state: try fields.requiredAllowingNull("state"))
    }
}
