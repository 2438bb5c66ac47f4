/// An action as recorded: its timeline label and its `Codable` encoding.
///
/// On the wire (`{"type": label, "payload": JSON}`) the label is left out when the payload already says it: when
/// the payload is an object with a single member named like the label (`{"touch": {…}}`, how Swift encodes an
/// enum case with associated values) or a string equal to the label (an enum case without them). A reader finds
/// the label there again (see docs/PROTOCOL.md, `action`).
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

    /// True when the payload says the label by itself, so the wire form leaves `type` out.
    var labelIsImplied: Bool { Self.impliedLabel(of: payload) == type }

    var json: JSONValue {
        if labelIsImplied {
            return .object(JSONObject(keys: ["payload"], values: [payload]))
        }
        return .object(JSONObject(keys: ["type", "payload"], values: [.string(type), payload]))
    }

    init(reading fields: WireFields) throws(WireError) {
        let payload = fields.object["payload"] ?? .null
        if let type = try fields.optionalString("type") {
            self.init(type: type, payload: payload)
        } else if let implied = Self.impliedLabel(of: payload) {
            self.init(type: implied, payload: payload)
        } else {
            throw WireFields.missingField(fields.fieldPath("type"))
        }
    }

    /// The label a payload says by itself: the name of its only member, or the string it is.
    private static func impliedLabel(of payload: JSONValue) -> String? {
        switch payload {
        case .object(let object) where object.count == 1: object.keys.first
        case .string(let text): text
        default: nil
        }
    }
}
