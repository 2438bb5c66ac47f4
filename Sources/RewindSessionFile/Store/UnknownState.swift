/// A stretch of one branch whose states the recording does not hold: the rows whose meaning says their state is
/// unknown for one same cause (``UnknownStateMark``) — the events after an app's `dropped` row (its outbox
/// coalesced, PROTOCOL.md §3.3), lost actions, an event out of order, an action whose patch did not apply — up to
/// the next event that carries a full state again (a `snapshot`, `jump`, `replay` or `reconnect`).
/// Events inside it are recorded without a patch, so "the previous state" would be a state the app no longer
/// had; readers report them as unknown instead.
///
/// Threading: a plain value; `Sendable`.
package struct UnknownState: Sendable, Hashable {
    /// The branch the stretch is on.
    package var branch: Int64
    /// The first event whose state is unknown; 0 when the initial state is unknown too (an import of a file
    /// without one, label `initial_unknown`).
    package var first: Int64
    /// The last event whose state is unknown; nil while the stretch is still open (no full state recorded yet).
    package var last: Int64?
    /// The event that made the state unknown (the `dropped` row, or the `error` row).
    package var cause: Int64
    /// That event's own text (its `detail`), e.g. "the app's outbox was full: states of actions 10–20 were not
    /// sent; a snapshot follows": for people.
    package var reason: String
    /// Why the state is unknown, as the file states it (``RowMeaning/unknownState``).
    package var why: UnknownStateReason

    /// A stretch with every field given.
    package init(branch: Int64, first: Int64, last: Int64?, cause: Int64, reason: String, why: UnknownStateReason) {
        self.branch = branch
        self.first = first
        self.last = last
        self.cause = cause
        self.reason = reason
        self.why = why
    }

    /// True when event `index` of `branch` lies in the stretch.
    package func contains(_ index: Int64, branch: Int64) -> Bool {
        branch == self.branch && index >= first && index <= (last ?? Int64.max)
    }

    /// The sentence a command refusing such an event gives: which events, why, and where the state is known.
    package func explanation(for index: Int64) -> String {
        var stretch = last.map { "events \(first)–\($0)" } ?? "the events from \(first) on"
        if first == 0 {
            stretch = "the initial state and " + (last.map { $0 > 0 ? "events 1–\($0)" : "no event" } ?? "every event")
        }
        var text = "the state after event \(index) is unknown: it was not recorded (\(stretch)"
            + "\(branch == 0 ? "" : " of branch \(branch)"); event \(cause): \(reason))"
        text += first > 0 ? "; the last known state is event \(first - 1)'s" : "; no earlier state is known"
        if let last { text += ", the next is event \(last + 1)'s" }
        return text
    }
}
