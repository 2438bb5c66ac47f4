/// A live event streamed to a control client that asked to `tail`: `{"type":"event","session":…,"event":{…}}`.
/// `event` is `{"type":"started","app":…}`, `{"type":"ended"}`, or a recorded event in the JSON Lines export
/// form (see docs/PROTOCOL.md §4.1); the daemon decides which.
///
/// Threading: a value type; safe to share.
public struct ControlEvent: Sendable, Hashable {
    /// The session the event belongs to.
    public var session: String
    /// The event (see the type's documentation).
    public var event: JSONValue

    /// An event.
    public init(session: String, event: JSONValue) {
        self.session = session
        self.event = event
    }

    /// An event carrying an app message.
    public init(session: String, message: AppMessage) {
        self.init(session: session, event: message.json)
    }

    /// The `{"type":"ended"}` event.
    public static func ended(session: String) -> ControlEvent {
        ControlEvent(session: session, event: ["type": "ended"])
    }

    /// The app message inside, when `event` is one (nil for `ended` and for unreadable events).
    public var appMessage: AppMessage? { try? AppMessage(json: event) }

    func write(into o: inout JSONObject) {
        o["session"] = .string(session)
        o["event"] = event
    }

    init(reading fields: WireFields) throws(WireError) {
        self.init(session: try fields.string("session"), event: try fields.required("event"))
    }
}
