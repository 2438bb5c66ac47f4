import RewindWire

/// The value at one JSON Pointer in the state after one recorded event, as far as the recording knows it: the value,
/// the fact that the state has nothing there, or the fact that the state after the event is unknown (inside a
/// `dropped` range, PROTOCOL.md §3.3). What the timeline's pinned watches and value plots show.
///
/// Threading: a plain value; `Sendable`.
package enum RecordedValue: Sendable, Hashable {
    /// The value at the pointer.
    case value(JSONValue)
    /// The state is known and has no value at the pointer.
    case absent
    /// The recording does not hold the state after the event.
    case unknown

    /// The value when there is one, nil otherwise.
    package var json: JSONValue? {
        if case .value(let value) = self { return value }
        return JSONValue?.none
    }

    /// The value as a number, when it is one (an integer or a floating-point number); nil otherwise.
    package var number: Double? {
        switch self {
        case .value(.int(let integer)): return Double(integer)
        case .value(.double(let double)): return double.isFinite ? double : nil
        default: return nil
        }
    }
}
