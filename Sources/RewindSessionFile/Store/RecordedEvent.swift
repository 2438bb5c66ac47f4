import RewindWire

/// One row of a session's timeline, as read back from its file.
///
/// `index` is the session-wide event number: 1, 2, 3… contiguous in a session file, across all branches (an
/// app's per-connection `seq` restarts after a reconnect, so it is kept separately as `appSeq`).
/// Threading: a plain value; `Sendable`.
package struct RecordedEvent: Sendable, Hashable {
    /// The session-wide event number (1-based, contiguous over all branches).
    package var index: Int64
    /// The app's per-connection sequence number, when the event came from the app.
    package var appSeq: Int64?
    /// When it happened, unix seconds.
    package var time: Double
    /// What kind of row this is.
    package var kind: EventKind
    /// The timeline label (an action's type).
    package var label: String?
    /// The action as the app encoded it.
    package var action: JSONValue?
    /// The change from the branch's previous state to the state after this event; nil when it has none.
    package var patch: JSONPatch?
    /// How long the app's reducer took, microseconds.
    package var reducerMicros: Double?
    /// Display text for errors, drops, reconnects, notes: for people only; what code needs is in ``meaning``.
    package var detail: String?
    /// What the row means: whether the state after it is known (and why not), and the facts its detail tells.
    package var meaning: RowMeaning
    /// 0 = the original timeline; skip/replay recomputations are recorded as branches N > 0.
    package var branch: Int64

    /// A row with every field given.
    package init(
        index: Int64, appSeq: Int64? = nil, time: Double, kind: EventKind, label: String? = nil,
        action: JSONValue? = nil, patch: JSONPatch? = nil, reducerMicros: Double? = nil, detail: String? = nil,
        branch: Int64 = 0, meaning: RowMeaning = RowMeaning()
    ) {
        self.index = index
        self.appSeq = appSeq
        self.time = time
        self.kind = kind
        self.label = label
        self.action = action
        self.patch = patch
        self.reducerMicros = reducerMicros
        self.detail = detail
        self.branch = branch
        self.meaning = meaning
    }
}
