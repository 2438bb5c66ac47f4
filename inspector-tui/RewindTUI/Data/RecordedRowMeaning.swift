import RewindSessionFile

/// The rules by which a source that holds no session file (the in-memory source) tells where a state becomes unknown
/// and where it is known again (PROTOCOL.md §3.3). Session files state it row by row (`RowMeaning`).
///
/// The rules follow what the daemon records (`LiveSession`): an app's `dropped` row (label `dropped`) means the
/// states of the actions after it were not sent; a `patch_failed` or `out_of_order` error means the daemon lost
/// track of the state from that row on; a `snapshot`, `jump`, `replay` or `reconnect` row carries a full state
/// again. A `dropped` row written by the recorder itself (no label) holds the state after the events it stands
/// for, so it does not make anything unknown. Pure functions: safe from any thread.
package enum RecordedRowMeaning {
    /// Where a row that makes the state unknown starts the unknown stretch.
    package enum UnknownStart: Sendable, Hashable {
        /// After the row: the row's own state (the state before the lost range) is still known.
        case afterRow
        /// At the row: its own state is already unknown.
        case atRow
    }

    /// Whether a main-line row makes the states after it unknown, and from where.
    package static func unknownStart(kind: TimelineEventKind, label: String?) -> UnknownStart? {
        switch kind {
        case .dropped where label == "dropped": return .afterRow
        // An import without an initial state: the row's own state (the recorded null) is unknown too.
        case .dropped where label == "initial_unknown": return .atRow
        case .error where label == "patch_failed" || label == "out_of_order": return .atRow
        default: return nil
        }
    }

    /// Whether a main-line row of this kind carries a full state, ending an unknown stretch.
    package static func restoresState(_ kind: TimelineEventKind) -> Bool {
        switch kind {
        case .snapshot, .jump, .replay, .reconnect: return true
        default: return false
        }
    }
}
