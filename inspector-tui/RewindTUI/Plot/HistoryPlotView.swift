import Foundation
import RewindSessionFile

/// The value plot at the bottom of the State tab while `b`/`B` step through a node's changes: a title (the location,
/// the selected change and its value, the smallest and largest value, which change of how many: `k/N changes`), then
/// - when the values are numbers, a bar chart of the value after each change, oldest left, newest right, in the
///   eight block characters ▁▂▃▄▅▆▇█ (one to four rows high; a column stands for a run of changes when there
///   are more changes than columns, and shows the value after the newest of them);
/// - otherwise a strip of the session from the initial state to the event the history was asked at, `│` where a
///   change lies and `·` elsewhere;
/// and a marker row: `▲` under the selected change's column (which is also in reverse video), the first and last
/// events at the ends. The marker and the characters carry every meaning, so monochrome terminals lose nothing.
/// Pure rendering.
package struct HistoryPlotView {
    /// The history stepped through.
    package var history: StateHistoryCursor
    /// Its plot, as asked and (once read) answered.
    package var plot: HistoryPlotState

    /// The eighths of a row, lowest first.
    private static let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// Creates the view.
    package init(history: StateHistoryCursor, plot: HistoryPlotState) {
        self.history = history
        self.plot = plot
    }

    /// Draws into `rect` (the height `TimelineModel.historyPlotHeight(bodyRows:)` gives, 3 or more).
    package func render(into buffer: inout ScreenBuffer, rect: Rect) {
        guard rect.height >= 3, rect.width >= 4 else { return }
        buffer.fill(rect)
        let chart = Rect(row: rect.row + 1, column: rect.column + 1, width: rect.width - 2, height: rect.height - 2)
        let markerRow = rect.bottom - 1
        let place = history.path.isEmpty ? "the state" : history.path
        let count = history.events.count == 1 ? "1 change" : "\(Formatting.grouped(history.events.count)) changes"
        var title = [TextSpan(place, CellStyle(bold: true))]
        defer { buffer.put(title, row: rect.row, column: rect.column + 1, width: rect.width - 2) }
        guard let answer = plot.answer else {
            title.append(TextSpan(" · \(count)", Theme.dim))
            title.append(TextSpan(plot.failure.map { " · cannot read the values: \($0)" } ?? " · reading values…",
                                  plot.failure == nil ? Theme.dim : Theme.error))
            return
        }
        // The selected change first, the extent next, the count last: a narrow pane cuts the least useful part.
        if answer.isNumeric {
            title += renderPlot(answer.values, chart: chart, markerRow: markerRow, into: &buffer)
        } else {
            title += selectedTitle(value: nil)
            title.append(TextSpan(" · along #0–#\(history.through) (not numbers)", Theme.dim))
            renderStrip(answer.strip, chart: chart, markerRow: markerRow, into: &buffer)
        }
        if history.events.indices.contains(history.position) {
            title.append(TextSpan(" · \(Formatting.grouped(history.events.count - history.position))/\(count)",
                                  Theme.dim))
        }
    }

    /// The selected change: ` · ▲ #E` and, when known, its value (` = V`).
    private func selectedTitle(value: String?) -> [TextSpan] {
        guard history.events.indices.contains(history.position) else { return [] }
        var spans = [TextSpan(" · ▲ #\(history.events[history.position])", CellStyle(bold: true))]
        if let value { spans.append(TextSpan(" = \(value)", Theme.jsonNumber)) }
        return spans
    }

    /// Draws the bar chart of `values` (one per column, oldest left) into `chart` and the marker row; returns the
    /// title's spans from the selected change on (its value, the smallest and largest value shown).
    private func renderPlot(
        _ values: [RecordedValue], chart: Rect, markerRow: Int, into buffer: inout ScreenBuffer
    ) -> [TextSpan] {
        let numbers = values.compactMap(\.number)
        guard let low = numbers.min(), let high = numbers.max() else { return [] }
        let columns = HistoryPlotColumns(changeCount: history.events.count, width: plot.request.width)
        let cellWidth = min(3, max(1, chart.width / max(1, columns.count)))
        let barWidth = cellWidth >= 2 ? cellWidth - 1 : 1
        let steps = chart.height * Self.levels.count
        let selected = columns.column(ofPosition: history.position)
        for (column, value) in values.enumerated() where column < columns.count {
            let left = chart.column + column * cellWidth
            guard left + barWidth <= chart.right else { break }
            guard let number = value.number else {
                buffer.put(String(repeating: value == .unknown ? "?" : "·", count: barWidth), row: chart.bottom - 1,
                           column: left, style: value == .unknown ? Theme.unknown : Theme.dim)
                continue
            }
            // The smallest value is one eighth of a row high, the largest the whole chart.
            let level = high > low ? 1 + Int(((number - low) / (high - low) * Double(steps - 1)).rounded()) : steps / 2
            for row in 0..<chart.height {
                let filled = level - (chart.height - 1 - row) * Self.levels.count
                guard filled > 0 else { continue }
                let block = Self.levels[min(filled, Self.levels.count) - 1]
                buffer.put(String(repeating: String(block), count: barWidth), row: chart.row + row, column: left,
                           style: Theme.jsonNumber)
            }
            if column == selected {
                buffer.restyle(Rect(row: chart.row, column: left, width: barWidth, height: chart.height)) {
                    $0.reverse = true
                }
            }
        }
        let first = history.events.last ?? 0
        let last = history.events.first ?? 0
        markEnds(left: "#\(first)", right: "#\(last)", marker: chart.column + selected * cellWidth + (barWidth - 1) / 2,
                 row: markerRow, chart: chart, used: min(chart.width, columns.count * cellWidth), into: &buffer)
        let sampled = columns.sampledPosition(ofColumn: selected) == history.position
        let value = sampled && values.indices.contains(selected) ? values[selected].number.map(Self.label) : nil
        return selectedTitle(value: value)
            + [TextSpan(" · min \(Self.label(low)) · max \(Self.label(high))", Theme.dim)]
    }

    /// Draws the strip of changes (`strip`: whether a change lies in each slice of the session) on the chart's last
    /// row, and the marker row.
    private func renderStrip(_ strip: [Bool], chart: Rect, markerRow: Int, into buffer: inout ScreenBuffer) {
        let width = min(strip.count, chart.width)
        guard width > 0 else { return }
        let range = 0...Int64(max(0, history.through))
        let selected = history.events.indices.contains(history.position)
            ? SessionMap.bucket(of: Int64(history.events[history.position]), in: range, buckets: strip.count) : -1
        let row = chart.bottom - 1
        for column in 0..<width {
            let isSelected = column == selected
            let mark = isSelected ? "◆" : strip[column] ? "│" : "·"
            var style = strip[column] || isSelected ? CellStyle(bold: true) : Theme.dim
            style.reverse = isSelected
            buffer.put(mark, row: row, column: chart.column + column, style: style)
        }
        markEnds(left: "#0", right: "#\(history.through)", marker: chart.column + min(max(0, selected), width - 1),
                 row: markerRow, chart: chart, used: width, into: &buffer)
    }

    /// The marker row: `▲` at `marker`, and the first and last events under the two ends of the chart's `used`
    /// columns where they leave the marker clear.
    private func markEnds(
        left: String, right: String, marker: Int, row: Int, chart: Rect, used: Int, into buffer: inout ScreenBuffer
    ) {
        let leftEnd = chart.column + DisplayWidth.of(left)
        if leftEnd < marker { buffer.put(left, row: row, column: chart.column, style: Theme.dim) }
        let end = min(chart.right, chart.column + max(used, DisplayWidth.of(left) + 1 + DisplayWidth.of(right)))
        var rightStart = end - DisplayWidth.of(right)
        if rightStart <= marker + 1 { rightStart = marker + 2 }  // the marker at the right end: the label after it
        if rightStart > leftEnd && rightStart + DisplayWidth.of(right) <= chart.right {
            buffer.put(right, row: row, column: rightStart, style: Theme.dim)
        }
        buffer.put("▲", row: row, column: marker, style: CellStyle(bold: true))
    }

    /// A number as the plot labels it: an integer without decimals, else up to four significant digits.
    package static func label(_ number: Double) -> String {
        if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
        return String(format: "%.4g", number)
    }
}
