import RewindSessionFile
import RewindWire

/// What toggling a skip (``Daemon/skip(session:index:completion:)``) came to.
///
/// Threading: a plain value; `Sendable`.
package struct SkipOutcome: Sendable, Hashable {
    /// The session's skipped action events after the toggle, ascending (empty: back on the main line).
    package var skipped: [Int64]
    /// The branch the recomputed states were recorded on, or 0 when nothing is skipped any more (the app was
    /// put back into the main line's last state).
    package var branch: Int64
    /// The recomputed states, one per replayed action, in order (empty when `branch` is 0).
    package var states: [JSONValue]
    /// The state the app ends in.
    package var finalState: JSONValue

    /// An outcome with every field given.
    package init(skipped: [Int64], branch: Int64, states: [JSONValue], finalState: JSONValue) {
        self.skipped = skipped
        self.branch = branch
        self.states = states
        self.finalState = finalState
    }

    /// The sentence the CLI and the timeline show.
    package var summary: String {
        if skipped.isEmpty { return "nothing skipped: the app is back on the main line" }
        let list = skipped.map(String.init).joined(separator: ", ")
        return "skipping event\(skipped.count == 1 ? "" : "s") \(list): \(states.count) state\(states.count == 1 ? "" : "s") "
            + "recomputed on branch \(branch)"
    }
}
