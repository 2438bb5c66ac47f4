import Foundation
import RewindWire

/// An event handed to `SessionRecording.append(_:stateAfter:)`; the recording gives it its index.
///
/// Contract for `patch`: it turns the state after the previous event *of the same branch* into `stateAfter`.
/// An event without a patch leaves the state unchanged (errors, notes, drops…), except a `snapshot`, `jump`,
/// `reconnect` or `replay` without a patch, which stands for a state replaced as a whole and gets a keyframe.
/// Any other event whose state does not follow from its patch must be appended with `forceKeyframe: true`.
/// Threading: a plain value; `Sendable`.
package struct NewEvent: Sendable, Hashable {
    /// The app's per-connection sequence number, when the event came from the app.
    package var appSeq: Int64?
    /// When it happened, unix seconds.
    package var time: Double
    /// What kind of row this is.
    package var kind: EventKind
    /// The timeline label (an action's type, e.g. `todo/add`).
    package var label: String?
    /// The action as the app encoded it.
    package var action: JSONValue?
    /// The change to the state (see the type's contract).
    package var patch: JSONPatch?
    /// How long the app's reducer took, microseconds.
    package var reducerMicros: Double?
    /// Display text for errors, drops, reconnects, notes: for people only; what code needs is in ``meaning``.
    package var detail: String?
    /// What the row means: whether the state after it is known (and why not), and the facts its detail tells.
    package var meaning: RowMeaning
    /// 0 for the original timeline; N > 0 for the N-th recomputation (skip/replay).
    package var branch: Int64

    /// An event; every field has a default (`time` is now, `kind` is `.action`, `branch` is 0).
    package init(
        appSeq: Int64? = nil,
        time: Double = Date().timeIntervalSince1970,
        kind: EventKind = .action,
        label: String? = nil,
        action: JSONValue? = nil,
        patch: JSONPatch? = nil,
        reducerMicros: Double? = nil,
        detail: String? = nil,
        branch: Int64 = 0,
        meaning: RowMeaning = RowMeaning()
    ) {
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
