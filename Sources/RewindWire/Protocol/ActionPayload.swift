/// An action as recorded: its timeline label and its `Codable` encoding.
///
/// Threading: a value type; safe to share.
public struct ActionPayload: Sendable, Hashable {
    /// The label shown on the timeline, e.g. `todo/add`.
    public var type: String
    /// The action's encoding (whatever JSON its `Codable` conformance produces; `null` when it has none).
    public var payload: JSONValue

    /// An action payload.
    public init(type: String, payload: JSONValue) {
        self.type = type
        self.payload = payload
    }

    var json: JSONValue {
        .object(JSONObject(keys: ["type", "payload"], values: [.string(type), payload]))
    }

    init(reading fields: WireFields) throws(WireError) {
        self.init(type: try fields.string("type"), payload: fields.object["payload"] ?? .null)
    }
}
