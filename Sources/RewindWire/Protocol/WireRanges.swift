/// The ranges the decoder accepts for numbers whose meaning bounds them (docs/PROTOCOL.md, "Limits"). A value
/// outside its range is refused at the edge with `bad_field` naming the field, so that no number from a peer
/// reaches a conversion that would trap (a time of `1e300` turned into milliseconds or a calendar date).
///
/// Threading: constants; safe from any thread.
public enum WireRanges {
    /// Times, in seconds since 1970-01-01T00:00:00Z: from the epoch to 9999-12-31T23:59:59Z. Such a time in
    /// milliseconds or microseconds still fits in `Int64`, and every calendar function can show it.
    public static let time: ClosedRange<Double> = 0...253_402_300_799

    /// Durations in microseconds (a reducer's time): up to 10^12 µs, about 11.6 days.
    public static let micros: ClosedRange<Double> = 0...1e12

    /// Sequence numbers, event indexes and branch numbers: non-negative and at most `Int64.max` (they are
    /// stored as SQLite integers).
    public static let sequence: ClosedRange<UInt64> = 0...UInt64(Int64.max)

    /// An app's action numbers (`seq` of `action`, `snapshot`, `goodbye`, `hello`; `from` and `to` of `dropped`):
    /// up to 2^53 − 1, which every JSON reader holds exactly (a double's integers) and an app dispatching a million
    /// actions a second reaches after 285 years. Larger numbers are refused with `bad_field`, so that no count derived
    /// from a peer's numbers (how many actions were lost) is absurd.
    public static let actionNumber: ClosedRange<UInt64> = 0...((1 << 53) - 1)

    /// True when `time` is finite and inside ``time``.
    public static func isValidTime(_ time: Double) -> Bool { WireRanges.time.contains(time) }

    /// A number as an error message shows it: an integer without a fraction (`253402300799`), anything else as
    /// JSON writes it (`1e+300`).
    public static func text(_ value: Double) -> String {
        if let exact = Int64(exactly: value) { return String(exact) }
        return JSONValue.double(value).serialized()
    }
}
