import RewindSessionFile

/// The stats view (`S`): what each action label of the selected session cost, as a table sorted htop-style by one
/// column, and the single slowest reducers and largest patches (Tab goes from table to table), with a selected row
/// (Enter goes to that label's events, or to that event). A plain value type.
package struct StatsViewState: Sendable, Hashable {
    /// The view's tables, in the order Tab goes through them.
    package enum Table: Int, Sendable, Hashable, CaseIterable {
        /// One row per label.
        case labels
        /// The events whose reducer took longest.
        case slowest
        /// The events whose patch is largest.
        case largest

        /// The table's name in the view's title.
        package var title: String {
            switch self {
            case .labels: return "labels"
            case .slowest: return "slowest reducers"
            case .largest: return "largest patches"
            }
        }
    }

    /// The table shown.
    package private(set) var table = Table.labels
    /// The session the table is about.
    package var session: String
    /// How many events were counted.
    package var eventCount: Int
    /// The column the rows are sorted by (largest first).
    package var order: LabelStatistics.Order = .count
    /// The rows, sorted by ``order``; nil while they are being computed.
    package private(set) var rows: [LabelStatistics]?
    /// The slowest reducers, slowest first; nil while they are being computed.
    package private(set) var slowest: [RankedEvent]?
    /// The largest patches, largest first; nil while they are being computed.
    package private(set) var largest: [RankedEvent]?
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

    /// Puts the computed `statistics` in place, the labels sorted by ``order``.
    package mutating func show(_ statistics: SessionStatistics) {
        rows = order.sorted(statistics.labels)
        slowest = statistics.slowest
        largest = statistics.largest
        selected = min(selected, max(0, rowCount - 1))
    }

    /// Shows the table `offset` places on in Tab's order (wrapping), from its first row.
    package mutating func switchTable(by offset: Int) {
        let count = Table.allCases.count
        table = Table(rawValue: ((table.rawValue + offset) % count + count) % count) ?? .labels
        selected = 0
        scroll = 0
    }

    /// The ranking the table shows, when it shows one (nil for the labels, or while computing).
    package var events: [RankedEvent]? {
        switch table {
        case .labels: return nil
        case .slowest: return slowest
        case .largest: return largest
        }
    }

    /// How many rows the table shown has (0 while computing).
    package var rowCount: Int {
        table == .labels ? rows?.count ?? 0 : events?.count ?? 0
    }

    /// The selected event of a ranking, when a ranking is shown and has rows.
    package var selectedEvent: RankedEvent? {
        guard let events, events.indices.contains(selected) else { return nil }
        return events[selected]
    }

    /// Sorts the labels by `order`, keeping the selected label selected (and shows them).
    package mutating func sort(by order: LabelStatistics.Order) {
        if table != .labels { (table, selected, scroll) = (.labels, 0, 0) }
        let label = selectedRow?.label
        self.order = order
        guard let rows else { return }
        self.rows = order.sorted(rows)
        selected = self.rows?.firstIndex { $0.label == label } ?? 0
    }

    /// Moves the selection by `offset` rows (clamped), keeping it within the `visible` rows shown.
    package mutating func move(by offset: Int, visible: Int) {
        guard rowCount > 0 else { return }
        selected = min(max(0, selected + offset), rowCount - 1)
        if selected < scroll { scroll = selected }
        if selected >= scroll + max(1, visible) { scroll = selected - max(1, visible) + 1 }
    }

    /// The selected label's row, when the labels are shown and have rows.
    package var selectedRow: LabelStatistics? {
        guard table == .labels, let rows, rows.indices.contains(selected) else { return nil }
        return rows[selected]
    }
}
