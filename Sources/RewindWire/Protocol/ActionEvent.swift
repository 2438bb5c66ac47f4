/// One dispatched action and the state change it caused: the body of an `action` message and of each
/// element of a `batch`.
///
/// Threading: a value type; safe to share.
public struct ActionEvent: Sendable, Hashable {
    /// Sequence number: 1 for the first action after `hello`, then +1 per action, per connection.
    public var seq: UInt64
    /// When the action was dispatched, in seconds since 1970-01-01T00:00:00Z; decoding accepts
    /// ``WireRanges/time`` only.
    public var time: Double
    /// The action.
    public var action: ActionPayload
    /// Turns the state after the previous event (or the `hello`/`snapshot` state) into the state after this
    /// one. Empty when nothing changed — and inside a `dropped` range, where states were not captured.
    public var patch: JSONPatch
    /// How long the reducers took, in microseconds (optional); decoding accepts ``WireRanges/micros`` only.
    public var reducerMicros: Double?
    /// Where the action was dispatched (optional): the text `File.swift:42`, or the number a ``SourceTable`` gave
    /// it earlier on the same connection.
    public var source: EventSource?

    /// An action event.
    public init(seq: UInt64, time: Double, action: ActionPayload, patch: JSONPatch, reducerMicros: Double? = nil,
                source: EventSource? = nil) {
        self.seq = seq
        self.time = time
        self.action = action
        self.patch = patch
        self.reducerMicros = reducerMicros
        self.source = source
    }

    func write(into o: inout JSONObject) {
        o["seq"] = .int(Int64(clamping: seq))
        o["time"] = .double(time)
        o["action"] = action.json
        o["patch"] = patch.json
        if let reducerMicros { o["reducerMicros"] = .double(reducerMicros) }
        switch source {
        case .location(let text): o["source"] = .string(text)
        case .reference(let number): o["source"] = .int(Int64(number))
        case nil: break
        }
    }

    var json: JSONValue {
        var o = JSONObject()
        write(into: &o)
        return .object(o)
    }

    init(reading fields: WireFields) throws(WireError) {
        self.init(
            seq: try fields.actionNumber("seq"),
            time: try fields.time("time"),
            action: try ActionPayload(reading: try fields.fields("action")),
            patch: try fields.patch("patch"),
            reducerMicros: try fields.optionalMicros("reducerMicros"),
            source: try fields.optionalSource("source"))
    }
}
