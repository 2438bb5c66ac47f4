import RewindSessionFile

extension EventKind {
    /// The one-column marker the timeline shows before the label (a space for plain actions). Letters, so that
    /// every terminal and font shows them at width 1.
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
