/// The three panes keyboard focus moves between with Tab. A plain value type.
package enum TimelinePane: Int, Sendable, Hashable, CaseIterable {
    /// The list of live and saved sessions.
    case sessions
    /// The event rows of the selected session.
    case timeline
    /// Action, Diff and State of the selected event.
    case detail

    /// The pane after this one, wrapping (Tab).
    package var next: TimelinePane {
        TimelinePane(rawValue: (rawValue + 1) % Self.allCases.count)!
    }

    /// The pane before this one, wrapping (Shift-Tab).
    package var previous: TimelinePane {
        TimelinePane(rawValue: (rawValue + Self.allCases.count - 1) % Self.allCases.count)!
    }
}
