import RewindSessionFile
import RewindWire

/// What one skip toggle has the app do, read from the session file before anything is sent to the app
/// (``Daemon/skip(session:index:completion:)``): either put the app back into the main line's last state (nothing
/// is skipped any more), or recompute the states after the earliest skipped event through the app's reducers, in
/// ``replays``.
///
/// Threading: a plain value, handed from the toggle's file reading to the steps that wait for the app.
struct SkipPlan: Sendable {
    /// One `replay` command of the recomputation: the app continues from `state` (or from where the previous replay
    /// left it when `reset` is false) and runs `actions`.
    struct Replay: Sendable {
        /// The state the replay resets the app to (ignored when `reset` is false).
        var state: JSONValue
        /// Whether the replay starts from `state`: the first replay of each segment does.
        var reset: Bool
        /// The actions, in order.
        var actions: [JSONValue]
        /// The segment (of ``SkipPlan/segments``) the actions belong to.
        var segment: Int
        /// The 1-based place of the first action among the segment's, and the segment's count, for the rows and
        /// for the deadline's sentence.
        var first: Int
        var ofSegment: Int
    }

    /// The toggled event, described for rows and messages: "event 2 (add)".
    var what: String
    /// The toggled event's index (what the skip row's ``RowMeaning/skip`` names).
    var event: Int64
    /// True when the toggle skips the event, false when it un-skips it.
    var skipping: Bool
    /// The skipped events after the toggle, ascending; empty: back to the main line.
    var skipped: [Int64]
    /// With nothing skipped: the main line's last state, which the app is put back into.
    var mainLineState: JSONValue?
    /// The earliest skipped event (0 with nothing skipped).
    var earliest: Int64 = 0
    /// The recorded state after event `earliest` − 1, where the recomputation starts.
    var base: JSONValue = .null
    /// The branch the recomputed states are recorded on.
    var branch: Int64 = 0
    /// The runs of actions to recompute, each after the state a reset put in place (all but the first).
    var segments: [RecomputationSegment] = []
    /// The replays that carry the segments to the app, in order (one plain reset to `base` when there is no
    /// action to recompute).
    var replays: [Replay] = []
}
