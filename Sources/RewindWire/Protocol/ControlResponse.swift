/// A message from the daemon to a control client: a reply to a request, or a streamed event.
///
/// Threading: a value type; safe to share.
public enum ControlResponse: Sendable, Hashable {
    /// `response`: the answer to the request with the same `id`.
    case response(ControlReply)
    /// `event`: a live event of a tailed session.
    case event(ControlEvent)

    /// The JSON form.
    public var json: JSONValue {
        var o = JSONObject()
        switch self {
        case .response(let reply):
            o["type"] = "response"
            reply.write(into: &o)
        case .event(let event):
            o["type"] = "event"
            event.write(into: &o)
        }
        return .object(o)
    }

    /// Reads the JSON form.
    public init(json: JSONValue) throws(WireError) {
        let (type, fields) = try WireEnvelope.open(json)
        switch type {
        case "response": self = .response(try ControlReply(reading: fields))
        case "event": self = .event(try ControlEvent(reading: fields))
        default: throw WireEnvelope.unknownType(type, expecting: "a control response or event")
        }
    }
}
