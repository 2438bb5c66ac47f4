import RewindWire

/// The state after one recorded event, as far as the recording knows it: the full state, or the fact that it is
/// unknown (inside a range whose per-action states the app never sent — PROTOCOL.md §3.3 — or after the daemon
/// lost track of the app's state), with why.
///
/// Threading: a plain value; `Sendable`.
package enum RecordedState: Sendable, Hashable {
    /// The exact state after the event.
    case known(JSONValue)
    /// The recording does not hold the state after the event.
    case unknown(UnknownState)

    /// The state when it is known, nil when it is not.
    package var value: JSONValue? {
        // Spelled out: a bare `nil` would be JSONValue's nil literal (`.null`), not "no value".
        if case .known(let state) = self { return state }
        return JSONValue?.none
    }
}
