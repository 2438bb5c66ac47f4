/// How the outbox stores a reducer time that was not measured: a `Recorder` host that does not time its reducer
/// records it as unknown (sent without `reducerMicros`, shown blank), not as zero. A sentinel rather than an
/// optional keeps the outbox's records as small as they were.
///
/// Threading: constants; any thread.
@usableFromInline
enum ReducerTime {
    /// The reducer time of an action whose host did not measure it.
    @usableFromInline static let unmeasured = UInt64.max
}
