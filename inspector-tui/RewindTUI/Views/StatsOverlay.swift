import RewindSessionFile

/// The stats view (`S`) in a framed box over the panes: one row per action label — count, reducer time (total,
/// p99, slowest), patch bytes (total, largest) — sorted by the column marked `▼`, the selected row highlighted; or
/// (Tab) the single slowest reducers or largest patches, one row per event. Narrow screens leave out the slowest and
/// largest columns. Pure rendering.
package struct StatsOverlay {
    /// What to show.
    package var state: StatsViewState

    /// Creates the view.
    package init(state: StatsViewState) {
        self.state = state
    }

    /// How many table rows fit in a box over `area` (the rest scrolls).
    package static func visibleRows(area: Rect) -> Int {
        max(1, area.height - 3)  // the frame and the column header
    }

    private struct Column: Sendable {
        let title: String
        let order: LabelStatistics.Order?
        let width: Int
        let value: @Sendable (LabelStatistics) -> String
    }

    private static let columns: [Column] = [
        Column(title: "COUNT", order: .count, width: 9) { Formatting.grouped(Int(clamping: $0.count)) },
        Column(title: "TOTAL", order: .total, width: 8) {
            $0.timedCount == 0 ? "—" : Formatting.duration(micros: $0.reducerTotalMicros)
        },
        Column(title: "P99", order: .p99, width: 7) { $0.reducerP99Micros.map { Formatting.duration(micros: $0) } ?? "—" },
        Column(title: "PATCHES", order: .patch, width: 9) { Formatting.bytes($0.patchBytesTotal) },
        Column(title: "SLOWEST", order: nil, width: 8) { $0.reducerMaxMicros.map { Formatting.duration(micros: $0) } ?? "—" },
        Column(title: "LARGEST", order: nil, width: 9) { Formatting.bytes($0.patchBytesMax) },
    ]

    /// Draws the box over `area`.
    package func render(into buffer: inout ScreenBuffer, area: Rect) {
        guard state.table == .labels else {
            renderRanking(into: &buffer, area: area)
            return
        }
        let what = state.rows.map { "\($0.count) label\($0.count == 1 ? "" : "s")" }
        let inner = drawBox(into: &buffer, area: area, rows: state.rows?.count ?? 0, what: what)
        guard inner.width > 0, inner.height > 0 else { return }
        // The label takes what the numbers leave; the last columns go first on narrow screens.
        var columns = Self.columns
        while columns.count > 3 && inner.width - columns.reduce(0, { $0 + $1.width + 2 }) < 12 { columns.removeLast() }
        let numbers = columns.reduce(0) { $0 + $1.width + 2 }
        let labelWidth = max(4, inner.width - numbers)
        var header = [TextSpan("LABEL" + String(repeating: " ", count: max(0, labelWidth - 5)), Theme.heading)]
        for column in columns {
            let marked = column.order == state.order ? "▼" + column.title : column.title
            header.append(TextSpan("  " + String(repeating: " ", count: max(0, column.width - DisplayWidth.of(marked)))))
            header.append(TextSpan(marked, column.order == state.order ? Theme.title : Theme.heading))
        }
        buffer.put(header, row: inner.row, column: inner.column, width: inner.width)
        guard let shown = state.rows else {
            putPending(into: &buffer, inner: inner)
            return
        }
        if shown.isEmpty {
            buffer.put("no events", row: inner.row + 1, column: inner.column, style: Theme.dim, maxWidth: inner.width)
            return
        }
        let visible = max(0, inner.height - 1)
        let first = min(max(0, state.scroll), max(0, shown.count - visible))
        for (offset, statistics) in shown[first..<min(shown.count, first + visible)].enumerated() {
            let row = inner.row + 1 + offset
            let style = first + offset == state.selected ? Theme.selection : CellStyle.plain
            var line = statistics.label
            let labelShown = DisplayWidth.of(line)
            line = labelShown > labelWidth ? line : line + String(repeating: " ", count: labelWidth - labelShown)
            buffer.put(line, row: row, column: inner.column, style: style, maxWidth: labelWidth)
            var column = inner.column + labelWidth
            for part in columns {
                let text = part.value(statistics)
                let padded = String(repeating: " ", count: max(0, part.width + 2 - DisplayWidth.of(text))) + text
                column += buffer.put(padded, row: row, column: column, style: style, maxWidth: part.width + 2)
            }
            if column < inner.right {
                buffer.put(String(repeating: " ", count: inner.right - column), row: row, column: column, style: style)
            }
        }
    }

    /// Draws the framed box for a table of `rows` rows (its column header included), titled with `what` it shows (nil:
    /// still computing); returns the inside of the frame.
    private func drawBox(into buffer: inout ScreenBuffer, area: Rect, rows: Int, what: String?) -> Rect {
        let box = Box.centered(width: min(area.width, 112), height: min(area.height, max(rows, 1) + 3), in: area)
        return Box.draw(into: &buffer, rect: box,
                        title: "Stats of \(Formatting.grouped(state.eventCount)) events: \(what ?? "computing…")")
    }

    /// Under the column header while the tables are being computed: that, or why they could not be.
    private func putPending(into buffer: inout ScreenBuffer, inner: Rect) {
        buffer.put(state.failure.map { "cannot compute the stats: \($0)" } ?? "counting every event off screen…",
                   row: inner.row + 1, column: inner.column, style: state.failure == nil ? Theme.dim : Theme.error,
                   maxWidth: inner.width)
    }

    /// Draws a ranking of single events (Tab from the labels): one row per event — its number, its measure (the
    /// reducer's time or the patch's bytes) and its label — in ranking order.
    private func renderRanking(into buffer: inout ScreenBuffer, area: Rect) {
        let events = state.events ?? []
        let inner = drawBox(into: &buffer, area: area, rows: events.count,
                            what: state.events.map { "\($0.count) \(state.table.title)" })
        guard inner.width > 0, inner.height > 0 else { return }
        let measureTitle = state.table == .slowest ? "REDUCER" : "PATCH"
        let numberWidth = 9, measureWidth = 9
        let header = String(repeating: " ", count: numberWidth - 5) + "EVENT"
            + String(repeating: " ", count: measureWidth + 2 - DisplayWidth.of(measureTitle) - 1) + "▼" + measureTitle
            + "  LABEL"
        buffer.put(header, row: inner.row, column: inner.column, style: Theme.heading, maxWidth: inner.width)
        guard state.events != nil else {
            putPending(into: &buffer, inner: inner)
            return
        }
        if events.isEmpty {
            let none = state.table == .slowest ? "no event has a reducer time" : "no event has a patch"
            buffer.put(none, row: inner.row + 1, column: inner.column, style: Theme.dim, maxWidth: inner.width)
            return
        }
        let visible = max(0, inner.height - 1)
        let first = min(max(0, state.scroll), max(0, events.count - visible))
        for (offset, event) in events[first..<min(events.count, first + visible)].enumerated() {
            let style = first + offset == state.selected ? Theme.selection : CellStyle.plain
            let number = Formatting.grouped(Int(clamping: event.index))
            let measure = state.table == .slowest ? Formatting.duration(micros: event.measure)
                : Formatting.bytes(Int64(event.measure))
            var line = String(repeating: " ", count: max(0, numberWidth - DisplayWidth.of(number))) + number
                + String(repeating: " ", count: max(0, measureWidth + 2 - DisplayWidth.of(measure))) + measure
                + "  " + event.label
            let shown = DisplayWidth.of(line)
            if shown < inner.width { line += String(repeating: " ", count: inner.width - shown) }
            buffer.put(line, row: inner.row + 1 + offset, column: inner.column, style: style, maxWidth: inner.width)
        }
    }
}
