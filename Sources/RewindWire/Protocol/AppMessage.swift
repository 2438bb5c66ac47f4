/// A message from an app (the inspector middleware) to the daemon. Wire form: one JSON object per WebSocket
/// text frame, with a `"type"` field naming the case (see docs/PROTOCOL.md).
///
/// Threading: a value type; safe to share.
public enum AppMessage: Sendable, Hashable {
    /// `hello`: first message of every connection, with the full state.
    case hello(Hello)
    /// `action`: one dispatched action and its state patch.
    case action(ActionEvent)
    /// `batch`: several action events in one frame, in `seq` order.
    case batch([ActionEvent])
    /// `snapshot`: the full state.
    case snapshot(Snapshot)
    /// `dropped`: a range of actions whose per-action states were coalesced away.
    case dropped(Dropped)
    /// `result`: the answer to a daemon command.
    case result(CommandResult)
    /// `goodbye`: the app ends the connection with everything delivered.
    case goodbye(Goodbye)

    /// The `"type"` string of this message.
    public var typeName: String {
        switch self {
        case .hello: return "hello"
        case .action: return "action"
        case .batch: return "batch"
        case .snapshot: return "snapshot"
        case .dropped: return "dropped"
        case .result: return "result"
        case .goodbye: return "goodbye"
        }
    }

    /// The JSON form (an object with `"type"` first).
    public var json: JSONValue {
        var o = JSONObject()
        o["type"] = .string(typeName)
        switch self {
        case .hello(let m): m.write(into: &o)
        case .action(let m): m.write(into: &o)
        case .batch(let events): o["events"] = .array(events.map(\.json))
        case .snapshot(let m): m.write(into: &o)
        case .dropped(let m): m.write(into: &o)
        case .result(let m): m.write(into: &o)
        case .goodbye(let m): m.write(into: &o)
        }
        return .object(o)
    }

    /// Reads the JSON form. Throws `bad_json` when it is not an object, `missing_field`/`bad_field` naming
    /// the field, `unknown_type` for a type this version does not know, `unsupported_protocol` when a
    /// `protocol` field announces a newer version. Unknown fields are ignored.
    public init(json: JSONValue) throws(WireError) {
        let (type, fields) = try WireEnvelope.open(json)
        switch type {
        case "hello": self = .hello(try Hello(reading: fields))
        case "action": self = .action(try ActionEvent(reading: fields))
        case "batch":
            let elements = try fields.array("events")
            guard !elements.isEmpty else {
                throw WireFields.badField(fields.fieldPath("events"), "a batch must hold at least one event")
            }
            var events: [ActionEvent] = []
            events.reserveCapacity(elements.count)
            for (i, element) in elements.enumerated() {
                events.append(try ActionEvent(reading: try WireFields(element, path: "batch.events[\(i)]")))
            }
            self = .batch(events)
        case "snapshot": self = .snapshot(try Snapshot(reading: fields))
        case "dropped": self = .dropped(try Dropped(reading: fields))
        case "result": self = .result(try CommandResult(reading: fields))
        case "goodbye": self = .goodbye(try Goodbye(reading: fields))
        default: throw WireEnvelope.unknownType(type, expecting: "an app message")
        }
    }
}
