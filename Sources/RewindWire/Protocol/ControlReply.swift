/// The daemon's answer to one control request:
/// `{"type":"response","id":…,"ok":true,"result":…}` or `{"type":"response","id":…,"ok":false,"error":{…}}`.
///
/// Threading: a value type; safe to share.
public struct ControlReply: Sendable, Hashable {
    /// The request's `id`.
    public var id: String
    /// The command's result when it succeeded (its shape depends on the command), else `nil`.
    public var result: JSONValue?
    /// Why it failed, else `nil`.
    public var error: WireError?

    /// True when the command succeeded.
    public var ok: Bool { error == nil }

    /// A success.
    public init(id: String, result: JSONValue) {
        self.id = id
        self.result = result
        self.error = nil
    }

    /// A failure.
    public init(id: String, error: WireError) {
        self.id = id
        self.result = nil
        self.error = error
    }

    func write(into o: inout JSONObject) {
        o["id"] = .string(id)
        o["ok"] = .bool(ok)
        if let error {
            o["error"] = error.json
        } else {
            o["result"] = result ?? .object(JSONObject())
        }
    }

    init(reading fields: WireFields) throws(WireError) {
        let id = try fields.string("id")
        if try fields.bool("ok") {
            self.init(id: id, result: fields.object["result"] ?? .null)
        } else {
            self.init(id: id, error: try WireError(reading: try fields.fields("error")))
        }
    }
}
