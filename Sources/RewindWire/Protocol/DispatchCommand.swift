/// `dispatch`: decode this action (the `Codable` encoding of the app's Action type) and dispatch it.
/// The app answers with a `result`; the action itself then travels as a normal `action` event.
///
/// Threading: a value type; safe to share.
public struct DispatchCommand: Sendable, Hashable {
    /// Command id, echoed in the `result`.
    public var id: String
    /// The action's `Codable` encoding.
    public var action: JSONValue

    /// A dispatch command.
    public init(id: String, action: JSONValue) {
        self.id = id
        self.action = action
    }

    func write(into o: inout JSONObject) {
        o["id"] = .string(id)
        o["action"] = action
    }

    init(reading fields: WireFields) throws(WireError) {
        self.init(id: try fields.string("id"), action: try fields.requiredAllowingNull("action"))
    }
}
