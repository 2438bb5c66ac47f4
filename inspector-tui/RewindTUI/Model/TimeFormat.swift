/// How the timeline shows event times (`t` toggles). A plain value type.
package enum TimeFormat: Sendable, Hashable {
    /// Since the session started: `+12.345s`, `+3:04.567`, `+1:02:03`.
    case relative
    /// Local wall-clock time: `15:30:12.345`.
    case absolute

    /// The other format.
    package var toggled: TimeFormat {
        self == .relative ? .absolute : .relative
    }
}
