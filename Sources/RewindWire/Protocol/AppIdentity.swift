/// Who an app connection is: the app's name and an identifier of this run of it.
///
/// Threading: a value type; safe to share.
public struct AppIdentity: Sendable, Hashable, Codable {
    /// The app's name as people know it (e.g. `todo`).
    public var name: String
    /// Identifies one run of the app, e.g. `"host:pid:start"`; stays the same across reconnects of that run,
    /// so the daemon can tell a reconnect from a new run.
    public var instance: String

    /// An identity.
    public init(name: String, instance: String) {
        self.name = name
        self.instance = instance
    }

    var json: JSONValue {
        .object(JSONObject(keys: ["name", "instance"], values: [.string(name), .string(instance)]))
    }

    init(reading fields: WireFields) throws(WireError) {
        self.init(name: try fields.string("name"), instance: try fields.string("instance"))
    }
}
