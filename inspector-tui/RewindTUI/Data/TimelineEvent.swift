import RewindSessionFile
import RewindWire

/// One row of the timeline: a recorded event — the session file's one row type, ``RecordedEvent``, with its action,
/// its patch and what it means (``RowMeaning``: whether the state after it is known, the event a branch row
/// recomputes, the actions a `lost` row lost, whether it was dispatched before its connection) — and the two facts
/// only the rows around it can tell: whether the action is skipped now, and whether the main line's state before it
/// is known.
///
/// Nothing here is worked out from a row's display text: every fact is the recorded row's own or the session's
/// (`SessionAnnotations` reads the skips and stretches the file states). A plain value type.
package struct TimelineEvent: Sendable, Hashable {
    /// The row as the session recorded it.
    package var recorded: RecordedEvent
    /// When the timeline places it, unix seconds: the recorded time, except for an app's `dropped` row, which is
    /// placed where its range began (the dispatch of the first action after it) when that is earlier than the
    /// arrival of the `dropped` message, so that times shown never run backwards.
    package var time: Double
    /// Whether the action is currently skipped (shown dimmed, marked `~`): the session's latest `skip` row about it
    /// skipped it.
    package var isSkipped: Bool
    /// True when the main line's state *before* this event is unknown (the state after the main line's previous
    /// event): skipping this action or replaying from it would start from a state that was not recorded.
    package var stateBeforeUnknown: Bool

    /// A row for `recorded`, placed at `time` (default: its recorded time).
    package init(_ recorded: RecordedEvent, time: Double? = nil, isSkipped: Bool = false,
                 stateBeforeUnknown: Bool = false) {
        self.recorded = recorded
        self.time = time ?? recorded.time
        self.isSkipped = isSkipped
        self.stateBeforeUnknown = stateBeforeUnknown
    }

    /// Session-wide event number, from 1.
    package var index: Int { Int(clamping: recorded.index) }
    /// What kind of row it is.
    package var kind: EventKind { recorded.kind }
    /// The action's label (`todo/add`), or a short title for other kinds; nil shows the kind's name.
    package var label: String? { recorded.label }
    /// The app's sequence number for it, if it came from the app.
    package var appSeq: Int? { recorded.appSeq.map { Int(clamping: $0) } }
    /// The action as the app encoded it; nil for rows that are not actions.
    package var action: JSONValue? { recorded.action }
    /// The change this event made to its branch's state; nil when none.
    package var patch: JSONPatch? { recorded.patch }
    /// Number of JSON Patch operations the event applied to the state; nil when it has no patch.
    package var patchSize: Int? { recorded.patch?.operations.count }
    /// How long the app's reducer took, microseconds; nil when not measured (unknown is not zero).
    package var reducerMicros: Double? { recorded.reducerMicros }
    /// Display text for errors, drops, reconnects, notes: for people only (nothing decides by it).
    package var detail: String? { recorded.detail }
    /// 0 for the original timeline; N > 0 for rows of a skip/replay recomputation.
    package var branch: Int { Int(clamping: recorded.branch) }
    /// What the recorded row means.
    package var meaning: RowMeaning { recorded.meaning }
    /// For a row of a recomputed branch: the main-line event it recomputes (`↳ #7 todo/toggle`); nil otherwise.
    package var recomputes: Int? { branch == 0 ? nil : recorded.meaning.recomputes.map { Int(clamping: $0) } }
    /// True when the state after this event was not recorded (PROTOCOL.md §3.3): the timeline shows it as unknown,
    /// never as "unchanged", and does not jump there. Why: ``unknownReason``.
    package var stateUnknown: Bool { !recorded.meaning.stateKnown }
    /// Why the state after this event is unknown (nil when it is known).
    package var unknownReason: UnknownStateReason? { recorded.meaning.unknownState?.reason }
    /// True when the app dispatched this action before the connection that delivered it was made (it queued it
    /// while disconnected and sent it after its `hello`). Shown as "before connect".
    package var beforeConnect: Bool { recorded.meaning.beforeConnect }
    /// For a `dropped` row labelled `lost`: how many of the app's actions never reached the record.
    package var lostActions: Int? { recorded.meaning.lost.map { Int(clamping: $0.count) } }

    /// The text the label column shows and the filter matches: the label, or the kind's name when there is none.
    package var displayLabel: String {
        label ?? kind.rawValue
    }
}
