import RewindSessionFile

/// The chart under the timeline's rows (`C`, issue 33): one quantity of the session (a `ChartMetric`) over its
/// events 0…count, one column per slice, as bars of the eight block characters ▁▂▃▄▅▆▇█ stacked over the band's rows.
///
/// Rows, top to bottom: the caption (the metric's name, then the selected slice — `▲ #first–last`, the time of its
/// first row after the session's start, and its value —
/// and, while the first computation fills the chart in from the left, `charting…`; the keys at the right), the bars (the y-axis left of them, its largest value labelled at the top), and the x-axis, where
/// `▲` marks the slice of the timeline's selected row. That slice's column is drawn in bold yellow with a `│` above
/// its bar, so the selection shows in monochrome too (`▲`, `│`, bold); colours only add to the block characters.
/// Pure rendering from the model's last computed chart (`SessionChartState`), rescaled when the session grew or the
/// width changed since, so a frame costs a few hundred cell writes.
package struct SessionChartView {
    /// The columns left of the bars: the y-axis labels (7) and the axis line (1).
    package static let gutterWidth = 8
    /// The bars' eighths, lowest first.
    package static let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    /// The selected slice's column and its `▲`.
    package static let selectionStyle = CellStyle(foreground: .yellow, bold: true)

    /// What to draw.
    package var model: TimelineModel

    /// Creates the view.
    package init(model: TimelineModel) {
        self.model = model
    }

    /// Draws the band into `rect` (`TimelineLayout.chart`): caption, bars, axis.
    package func render(into buffer: inout ScreenBuffer, rect: Rect) {
        guard !rect.isEmpty, let metric = model.chartMetric, let session = model.selectedSession else { return }
        buffer.fill(rect)
        let columns = max(0, rect.width - Self.gutterWidth)
        let state = model.chart?.session == session.id ? model.chart : nil
        let buckets = Self.columnBuckets(state?.charted, count: session.eventCount, columns: columns)
        let values = metric.values(of: buckets, sessionStart: session.startedAt)
        let peak = values.compactMap { $0 }.max() ?? 0
        let selected = columns > 0 ? model.chartColumn(of: model.cursor, columns: columns) : -1
        renderCaption(into: &buffer, rect: rect, metric: metric, state: state, buckets: buckets, values: values,
                      selected: selected, columns: columns)
        guard rect.height >= 3, columns > 0 else { return }
        let barRows = rect.height - 2
        let plot = rect.column + Self.gutterWidth
        for line in 0..<barRows {
            let row = rect.row + 1 + line
            if line == 0 {
                buffer.putRightAligned(peak > 0 ? metric.format(peak) : "", row: row, end: plot - 1,
                                       minColumn: rect.column, style: Theme.dim)
            }
            buffer.put(line == 0 ? "┤" : "│", row: row, column: plot - 1, style: Theme.dim)
        }
        for (column, value) in values.enumerated() {
            let eighths = Self.eighths(value ?? 0, peak: peak, rows: barRows)
            let isSelected = column == selected
            for line in 0..<barRows {
                let fromBottom = barRows - 1 - line
                let cell = min(max(0, eighths - 8 * fromBottom), 8)
                let row = rect.row + 1 + line
                if cell > 0 {
                    buffer.put(String(Self.levels[cell - 1]), row: row, column: plot + column,
                               style: isSelected ? Self.selectionStyle : metric.style)
                } else if isSelected {
                    buffer.put("│", row: row, column: plot + column, style: Self.selectionStyle.dimmed)
                }
            }
        }
        let axis = rect.bottom - 1
        buffer.putRightAligned("0", row: axis, end: plot - 1, minColumn: rect.column, style: Theme.dim)
        buffer.put("└" + String(repeating: "─", count: columns), row: axis, column: plot - 1, style: Theme.dim)
        if selected >= 0 { buffer.put("▲", row: axis, column: plot + selected, style: Self.selectionStyle) }
    }

    /// The caption: the metric, then the selected slice (or what the chart is waiting for), the keys at the right.
    private func renderCaption(
        into buffer: inout ScreenBuffer, rect: Rect, metric: ChartMetric, state: SessionChartState?,
        buckets: [SessionChart.Bucket], values: [Double?], selected: Int, columns: Int
    ) {
        var spans = [TextSpan(" " + metric.title, metric.style.bolded), TextSpan("  ")]
        if let failure = state?.failure, state?.charted == nil {
            spans.append(TextSpan("cannot chart: \(failure)", Theme.error))
        } else if state?.charted == nil {
            spans.append(TextSpan("charting…", Theme.dim))
        } else if buckets.indices.contains(selected) {
            let first = model.firstIndex(ofChartColumn: selected, columns: columns)
            let next = selected + 1 < columns ? model.firstIndex(ofChartColumn: selected + 1, columns: columns)
                : model.eventCount + 1
            let last = max(first, next - 1)
            let range = first == last ? "#\(Formatting.grouped(first))"
                : "#\(Formatting.grouped(first))–\(Formatting.grouped(last))"
            spans.append(TextSpan("▲ " + range + " ", Self.selectionStyle))
            let bucket = buckets[selected]
            if let time = bucket.firstTime, let start = model.selectedSession?.startedAt {
                spans.append(TextSpan(Formatting.relativeTime(time - start) + "  ", Theme.dim))
            }
            spans.append(TextSpan(values[selected].map(metric.format) ?? "—"))
            switch metric {
            case .stateSize:
                break
            case .actionRate:
                spans.append(TextSpan(bucket.actions == 1 ? "  1 action" : "  \(Formatting.grouped(Int(bucket.actions))) actions",
                                      Theme.dim))
            case .reducerTime:
                if bucket.timedEvents > 0 {
                    let mean = bucket.reducerMicrosTotal / Double(bucket.timedEvents)
                    spans.append(TextSpan("  mean " + Formatting.duration(micros: mean), Theme.dim))
                }
            case .patchSize:
                if bucket.patchedEvents > 0 {
                    spans.append(TextSpan("  mean " + Formatting.bytes(bucket.patchBytesTotal / bucket.patchedEvents),
                                          Theme.dim))
                }
            }
            if state?.partial == true { spans.append(TextSpan("  charting…", Theme.dim)) }
        }
        let keys = [TextSpan("C", Theme.key), TextSpan(" next  ", Theme.dim), TextSpan("← →", Theme.key),
                    TextSpan(" slice ", Theme.dim)]
        let keysWidth = DisplayWidth.of(keys.map(\.text).joined())
        let used = buffer.put(spans, row: rect.row, column: rect.column, width: rect.width)
        if used + keysWidth + 2 <= rect.width {
            buffer.put(keys, row: rect.row, column: rect.right - keysWidth, width: keysWidth)
        }
    }

    /// How many eighths of a cell the bar of `value` fills in `rows` rows, scaled to `peak`: none for zero, at least
    /// one for anything above, all of them for the peak (rounded up, as `Sparkline` does).
    package static func eighths(_ value: Double, peak: Double, rows: Int) -> Int {
        guard value > 0, peak > 0, rows > 0 else { return 0 }
        let total = rows * 8
        let scaled = Int(saturating: (value / peak * Double(total)).rounded(.up))
        return min(max(1, scaled), total)
    }

    /// The slices of each of `columns` columns over events 0…`count`, from `chart` (computed for another count or
    /// width, perhaps): each column merges the chart's slices that cover its events. Columns past the chart's range
    /// (events recorded since) and all columns without a chart are empty.
    package static func columnBuckets(_ chart: SessionChart?, count: Int, columns: Int) -> [SessionChart.Bucket] {
        guard columns > 0 else { return [] }
        var result = Array(repeating: SessionChart.Bucket(), count: columns)
        guard let chart, !chart.buckets.isEmpty else { return result }
        let range = 0...Int64(max(0, count))
        if chart.range == range && chart.buckets.count == columns { return chart.buckets }
        for column in 0..<columns {
            let first = SessionMap.firstIndex(ofBucket: column, in: range, buckets: columns)
            let last = min(SessionMap.firstIndex(ofBucket: column + 1, in: range, buckets: columns) - 1,
                           chart.range.upperBound)
            guard first <= range.upperBound, first <= last, first >= chart.range.lowerBound else { continue }
            for bucket in chart.bucket(of: first)...chart.bucket(of: last) { result[column].merge(chart.buckets[bucket]) }
        }
        return result
    }
}
