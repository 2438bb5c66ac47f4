/// The detail pane's tabs. A plain value type.
package enum DetailTab: Int, Sendable, Hashable, CaseIterable {
    /// The action, pretty-printed, with the event's facts.
    case action
    /// The event's patch as a coloured tree: added, removed, changed (`old → new`).
    case diff
    /// The full state after the event, as a collapsible tree.
    case state

    /// The tab's title in the tab bar.
    package var title: String {
        switch self {
        case .action: return "Action"
        case .diff: return "Diff"
        case .state: return "State"
        }
    }

    /// The tab after this one, wrapping.
    package var next: DetailTab {
        DetailTab(rawValue: (rawValue + 1) % Self.allCases.count)!
    }

    /// The tab before this one, wrapping.
    package var previous: DetailTab {
        DetailTab(rawValue: (rawValue + Self.allCases.count - 1) % Self.allCases.count)!
    }
}
