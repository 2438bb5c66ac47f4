/// `resync`: the daemon lost track of the app's state (a gap in `seq`, a patch that did not apply) and asks
/// for a `snapshot`.
///
/// Threading: a value type; safe to share.
public struct Resync: Sendable, Hashable {
    /// Why, for logs and display.
    public var reason: String

    /// A resync request.
    public init(reason: String) {
        self.reason = reason
    }

    func write(into o: inout JSONObject) {
        o["reason"] = .string(reason)
    }

    init(reading fields: WireFields) throws(WireError) {
        self.init(reason: try fields.optionalString("reason") ?? "")
    }
}
