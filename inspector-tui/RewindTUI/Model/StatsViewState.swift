import RewindSessionFile

/// The stats view (`S`): what each action label of the selected session cost, as a table sorted htop-style by one
/// column, with a selected row (Enter goes to that label's events). A plain value type.
package struct StatsViewState: Sendable, Hashable {
    /// The session the table is about.
    package var session: String
    /// How many events were counted.
    package var eventCount: Int
    /// The column the rows are sorted by (largest first).
    package var order: LabelStatistics.Order = .count
    /// The rows, sorted by ``order``; nil while they are being computed.
    package private(set) var rows: [LabelStatistics]?
    /// Why they could not be computed, if so.
    package var failure: String?
    /// The selected row.
    package var selected = 0
    /// The first row shown.
    package var scroll = 0

    /// A view of `session`'s first `eventCount` events whose table is being computed.
    package init(session: String, eventCount: Int) {
        self.session = session
        self.eventCount = eventCount
    }

    /// Puts the computed `statistics` in place, sorted by ``order``.
    package mutating func show(_ statistics: [LabelStatistics]) {
        rows = order.sorted(statistics)
        selected = min(selected, max(0, statistics.count - 1))
    }

    /// Sorts by `order`, keeping the selected label selected.
    package mutating func sort(by order: LabelStatistics.Order) {
        let label = selectedRow?.label
        self.order = order
        guard let rows else { return }
        self.rows = order.sorted(rows)
        selected = self.rows?.firstIndex { $0.label == label } ?? 0
    }

    /// Moves the selection by `offset` rows (clamped), keeping it within the `visible` rows shown.
    package mutating func move(by offset: Int, visible: Int) {
        guard let rows, !rows.isEmpty else { return }
        selected = min(max(0, selected + offset), rows.count - 1)
        if selected < scroll { scroll = selected }
        if selected >= scroll + max(1, visible) { scroll = selected - max(1, visible) + 1 }
    }

    /// The selected row, if the table has rows.
    package var selectedRow: LabelStatistics? {
        guard let rows, rows.indices.contains(selected) else { return nil }
        return rows[selected]
    }
}
