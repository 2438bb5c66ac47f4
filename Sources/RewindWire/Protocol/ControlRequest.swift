/// A control client's request: `{"type":"request","id":…,"command":…,"args":{…},"token"?:…}`.
/// The daemon answers each with one `response` carrying the same `id`.
///
/// Threading: a value type; safe to share.
public struct ControlRequest: Sendable, Hashable {
    /// Chosen by the client, echoed in the response.
    public var id: String
    /// What to do.
    public var command: ControlCommand
    /// The token, required on the first request of a connection when the daemon has one.
    public var token: String?

    /// A request.
    public init(id: String, command: ControlCommand, token: String? = nil) {
        self.id = id
        self.command = command
        self.token = token
    }

    /// The JSON form.
    public var json: JSONValue {
        var o = JSONObject()
        o["type"] = "request"
        o["id"] = .string(id)
        o["command"] = .string(command.name)
        o["args"] = .object(command.args)
        if let token { o["token"] = .string(token) }
        return .object(o)
    }

    /// Reads the JSON form; `args` may be omitted when the command takes none.
    public init(json: JSONValue) throws(WireError) {
        let (type, fields) = try WireEnvelope.open(json)
        guard type == "request" else { throw WireEnvelope.unknownType(type, expecting: "a control request") }
        let name = try fields.string("command")
        let args = try fields.optionalFields("args") ?? WireFields(JSONObject(), path: "request.args")
        self.init(id: try fields.string("id"), command: try ControlCommand(name: name, args: args),
                  token: try fields.optionalString("token"))
    }
}
