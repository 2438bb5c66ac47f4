import RewindSessionFile

/// One row of the timeline: what the timeline pane shows without reading the action or the patch.
///
/// Data sources should make these cheap (no JSON decoding of payloads) because a screen asks for a few dozen
/// every frame. A plain value type.
package struct TimelineEvent: Sendable, Hashable {
    /// Session-wide event number, from 1.
    package var index: Int
    /// When it happened, unix seconds. For an app's `dropped` row: when its range began (the dispatch of the
    /// first action after it) if that is earlier than the arrival of the `dropped` message, so that times shown
    /// never run backwards.
    package var time: Double
    /// What kind of row it is.
    package var kind: TimelineEventKind
    /// The action's label (`todo/add`), or a short title for other kinds; nil shows the kind's name.
    package var label: String?
    /// Number of JSON Patch operations the event applied to the state; nil when it has no patch.
    package var patchSize: Int?
    /// How long the app's reducer took, microseconds.
    package var reducerMicros: Double?
    /// Human text for errors, drops, reconnects, notes.
    package var detail: String?
    /// Whether the action is currently skipped (shown dimmed, marked `~`).
    package var isSkipped: Bool
    /// 0 for the original timeline; N > 0 for rows of a skip/replay recomputation.
    package var branch: Int
    /// For a row of a recomputed branch: the main-line event it recomputes (`↳ #7 todo/toggle`); nil otherwise.
    package var recomputes: Int?
    /// True when the state after this event was not recorded (PROTOCOL.md §3.3: inside a `dropped` range, or
    /// after a patch that did not apply, until the next full state): the timeline must show it as unknown, never
    /// as "unchanged", and must not jump there.
    package var stateUnknown: Bool
    /// True when the main line's state *before* this event is unknown (see `stateUnknown`): skipping this action
    /// or replaying from it would start from a state that was not recorded.
    package var stateBeforeUnknown: Bool
    /// True when the event's time (the app's clock) is earlier than the start of the connection that delivered
    /// it: the app dispatched it before it (re)connected and sent it later. Shown as "before connect".
    package var beforeConnect: Bool
    /// For a `dropped` row: how many actions were lost altogether (not only their states), when the recording
    /// says; nil when it does not.
    package var lostActions: Int?

    /// Creates a row.
    package init(
        index: Int, time: Double, kind: TimelineEventKind = .action, label: String? = nil, patchSize: Int? = nil,
        reducerMicros: Double? = nil, detail: String? = nil, isSkipped: Bool = false, branch: Int = 0,
        recomputes: Int? = nil, stateUnknown: Bool = false, stateBeforeUnknown: Bool = false,
        beforeConnect: Bool = false, lostActions: Int? = nil
    ) {
        self.index = index
        self.time = time
        self.kind = kind
        self.label = label
        self.patchSize = patchSize
        self.reducerMicros = reducerMicros
        self.detail = detail
        self.isSkipped = isSkipped
        self.branch = branch
        self.recomputes = recomputes
        self.stateUnknown = stateUnknown
        self.stateBeforeUnknown = stateBeforeUnknown
        self.beforeConnect = beforeConnect
        self.lostActions = lostActions
    }

    /// The text the label column shows and the filter matches: the label, or the kind's name when there is none.
    package var displayLabel: String {
        label ?? kind.rawValue
    }
}
