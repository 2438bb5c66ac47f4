/// What a timeline row records; decides its marker and colour. Mirrors the store's `EventKind`.
/// A plain value type.
public enum TimelineEventKind: String, Sendable, Hashable, CaseIterable {
    /// An action the app dispatched.
    case action
    /// A full state the app sent (after connecting, or after its outbox coalesced).
    case snapshot
    /// Events were lost or their states coalesced away.
    case dropped
    /// Something went wrong.
    case error
    /// The inspector jumped the app to a recorded state.
    case jump
    /// A replay of recorded actions into the app.
    case replay
    /// The app reconnected.
    case reconnect
    /// An action was skipped (or un-skipped) and the rest recomputed.
    case skip
    /// The inspector dispatched an action into the app.
    case dispatch
    /// A free-text annotation.
    case note

    /// The one-column marker shown before the label (a space for plain actions). Letters, so that every
    /// terminal and font shows them at width 1.
    public var marker: Character {
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
