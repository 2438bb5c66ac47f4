import RewindSessionFile

/// The rows the timeline hides: those whose label does not match (`/REGEX` then Tab), and those of hidden kinds
/// (`/-snapshot,note`). The visible rows are computed off the UI thread (`rows`, growing as a live session
/// records); until then the timeline shows every row. A plain value type.
package struct TimelineRowFilter: Sendable, Hashable {
    /// The session it was computed for.
    package var session: String
    /// Only rows whose label matches are shown (nil: any label).
    package var labels: TimelineLabelFilter?
    /// Rows of these kinds are hidden.
    package var hiddenKinds: Set<EventKind>
    /// The visible event indices (≥ 1), in order, among `1…coveredThrough`; nil until first computed.
    package var rows: [Int]?
    /// The last event index the rows account for (0: none yet).
    package var coveredThrough = 0
    /// The last event index asked of the row thread (to ask each new stretch once).
    package var requestedThrough = 0

    /// A filter not computed yet.
    package init(session: String, labels: TimelineLabelFilter?, hiddenKinds: Set<EventKind>) {
        self.session = session
        self.labels = labels
        self.hiddenKinds = hiddenKinds
    }

    /// Whether a row of `kind` with `label` stays visible.
    package func shows(_ event: TimelineEvent) -> Bool {
        !hiddenKinds.contains(event.kind) && (labels?.matches(event) ?? true)
    }

    /// For the timeline's title: `only /x/ · no snapshot, note`.
    package var description: String {
        var parts: [String] = []
        if let labels { parts.append("only /\(labels.pattern)/") }
        if !hiddenKinds.isEmpty {
            parts.append("no " + EventKind.allCases.filter(hiddenKinds.contains).map(\.rawValue)
                .joined(separator: ", "))
        }
        return parts.joined(separator: " · ")
    }

    /// Parses `-kind[,kind…]` (spaces also separate): the kinds to hide. Nil when `text` does not start with `-`.
    /// - Throws: `TimelineSearchQuery.Invalid` naming an unknown kind and the known ones.
    package static func kinds(parsing text: String) throws(TimelineSearchQuery.Invalid) -> Set<EventKind>? {
        let trimmed = text.drop { $0 == " " }
        guard trimmed.hasPrefix("-") else { return nil }
        var kinds = Set<EventKind>()
        for name in trimmed.split(whereSeparator: { $0 == "," || $0 == " " }) {
            let word = name.drop { $0 == "-" }
            guard !word.isEmpty else { continue }
            guard let kind = EventKind(rawValue: String(word)) else {
                throw TimelineSearchQuery.Invalid(description: "no event kind '\(word)' (kinds: "
                    + EventKind.allCases.map(\.rawValue).joined(separator: ", ") + ")")
            }
            kinds.insert(kind)
        }
        guard !kinds.isEmpty else {
            throw TimelineSearchQuery.Invalid(description: "name the kinds to hide, e.g. -snapshot,note,reconnect")
        }
        return kinds
    }
}
