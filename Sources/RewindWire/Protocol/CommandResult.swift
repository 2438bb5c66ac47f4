/// `result`: the app's answer to a daemon command (`jump`, `dispatch`, `replay`), matched by `id`.
///
/// A `replay` sent with `portions` may be answered by several results with the same `id`: every one but the last
/// has `more` true, and together their `patches` hold one patch per replayed action, in order — the first from
/// `from` (the state the replay started from, carried by the first portion), each next one from the state after
/// the previous action. The last portion says how many actions were `replayed`. A failure ends the answer at
/// once (`ok` false).
///
/// Threading: a value type; safe to share.
public struct CommandResult: Sendable, Hashable {
    /// The `id` of the command answered.
    public var id: String
    /// Whether the command was carried out.
    public var ok: Bool
    /// Why not, when `ok` is false.
    public var error: String?
    /// For `replay`: the state after each replayed action, in order.
    public var states: [JSONValue]?
    /// The app's state after the command (optional).
    public var state: JSONValue?
    /// For `replay` with `portions`, in the first portion: the state the replay started from, as the app
    /// encodes it.
    public var from: JSONValue?
    /// For `replay` with `portions`: for each action of this portion, the patch from the state before it to the
    /// state after it.
    public var patches: [JSONPatch]?
    /// For `replay` with `portions`: true when more portions of this answer follow.
    public var more: Bool
    /// For `replay` with `portions`, in the last portion: how many actions were replayed in all.
    public var replayed: Int?

    /// A result message.
    public init(id: String, ok: Bool, error: String? = nil, states: [JSONValue]? = nil, state: JSONValue? = nil,
                from: JSONValue? = nil, patches: [JSONPatch]? = nil, more: Bool = false, replayed: Int? = nil) {
        self.id = id
        self.ok = ok
        self.error = error
        self.states = states
        self.state = state
        self.from = from
        self.patches = patches
        self.more = more
        self.replayed = replayed
    }

    func write(into o: inout JSONObject) {
        o["id"] = .string(id)
        o["ok"] = .bool(ok)
        if let error { o["error"] = .string(error) }
        if let states { o["states"] = .array(states) }
        if let state { o["state"] = state }
        if let from { o["from"] = from }
        if let patches { o["patches"] = .array(patches.map(\.json)) }
        if more { o["more"] = .bool(true) }
        if let replayed { o["replayed"] = .int(Int64(replayed)) }
    }

    init(reading fields: WireFields) throws(WireError) {
        var patches: [JSONPatch]?
        if let items = try fields.optionalArray("patches") {
            var list: [JSONPatch] = []
            list.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                do {
                    list.append(try JSONPatch(json: item))
                } catch {
                    throw WireFields.badField(fields.fieldPath("patches[\(index)]"), "not a valid JSON Patch: \(error)")
                }
            }
            patches = list
        }
        let replayed = try fields.optionalInt("replayed")
        if let replayed, replayed < 0 {
            throw WireFields.badField(fields.fieldPath("replayed"), "must not be negative")
        }
        self.init(id: try fields.string("id"), ok: try fields.bool("ok"), error: try fields.optionalString("error"),
                  states: try fields.optionalArray("states"), state: fields.object["state"],
                  from: fields.object["from"], patches: patches, more: try fields.optionalBool("more") ?? false,
                  replayed: replayed)
    }
}
