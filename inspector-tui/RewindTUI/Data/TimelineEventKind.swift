import RewindSessionFile

/// What a timeline row records: the session file's one ``EventKind`` (the timeline has no kind of its own).
package typealias TimelineEventKind = EventKind

extension EventKind {
    /// The one-column marker shown before the label (a space for plain actions). Letters, so that every
    /// terminal and font shows them at width 1.
    package var marker: Character {
        switch self {
        case .action: return " "
        case .snapshot: return "S"
        case .dropped: return "D"
        case .error: return "E"
        case .jump: return "J"
        case .replay: return "R"
        case .reconnect: return "C"
        case .skip: return "~"
        case .dispatch: return ">"
        case .note: return "N"
        }
    }
}
