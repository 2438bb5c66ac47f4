/// The detail pane: a tab bar (Action, Diff, State; the active tab stands out in the opposite video) with the
/// selected event's title and the scroll position, then the content lines from `DetailContentCache`, scrolled, with the cursor line
/// reversed when the pane has the focus; while `b`/`B` step through a node's changes, the value plot
/// (`HistoryPlotView`) takes the bottom rows. Pure rendering.
package struct DetailView {
    /// The model to draw.
    package var model: TimelineModel
    /// The content of the selected event and tab.
    package var content: DetailContent

    /// Creates the view.
    package init(model: TimelineModel, content: DetailContent) {
        self.model = model
        self.content = content
    }

    /// Draws into `rect`.
    package func render(into buffer: inout ScreenBuffer, rect: Rect) {
        guard !rect.isEmpty else { return }
        let focused = model.focus == .detail && model.dialog == nil
        let plotRows = model.historyPlotRows
        let fullBody = rect.droppingTop(1)
        let body = fullBody.droppingBottom(plotRows)
        if plotRows > 0, let history = model.history, let plot = model.historyPlot {
            HistoryPlotView(history: history, plot: plot).render(into: &buffer, rect: fullBody.bottom(plotRows))
        }
        let lines = content.lines
        let cursor = min(max(0, model.detailCursor), max(0, lines.count - 1))
        var scroll = min(model.detailScroll, max(0, lines.count - body.height))
        if cursor < scroll { scroll = cursor }
        if cursor >= scroll + body.height { scroll = cursor - body.height + 1 }
        scroll = max(0, scroll)
        var position: String?
        if lines.count > body.height {
            position = "\(min(lines.count, scroll + body.height))/\(lines.count)"
        }
        renderTabs(into: &buffer, rect: rect, focused: focused, position: position)
        buffer.fill(body)
        guard !body.isEmpty else { return }
        for offset in 0..<body.height {
            let position = scroll + offset
            guard position < lines.count else { break }
            let line = lines[position]
            let row = body.row + offset
            let indent = min(line.indent, max(0, body.width - 8))
            buffer.put(line.spans, row: row, column: body.column + 1 + indent, width: max(0, body.width - 1 - indent))
            if focused && position == cursor {
                buffer.restyle(Rect(row: row, column: body.column, width: body.width, height: 1)) { $0.reverse = true }
            }
        }
    }

    private func renderTabs(into buffer: inout ScreenBuffer, rect: Rect, focused: Bool, position: String?) {
        let base = focused ? Theme.bar : Theme.title
        buffer.fill(rect.top(1), style: base)
        var column = rect.column
        for tab in DetailTab.allCases {
            let active = tab == model.detailTab
            var style = base
            if active {
                style.reverse.toggle()
                style.bold = true
            } else {
                style.dim = true
            }
            column += buffer.put(" \(tab.rawValue + 1) \(tab.title) ", row: rect.row, column: column, style: style,
                                 maxWidth: rect.right - column)
            column += buffer.put(" ", row: rect.row, column: column, style: base, maxWidth: rect.right - column)
        }
        let room = rect.right - column - 1
        if room > 4 {
            let title = content.title + (position.map { "  " + $0 } ?? "") + " "
            let width = min(DisplayWidth.of(title), room)
            buffer.put(title, row: rect.row, column: rect.right - width, style: base, maxWidth: width)
        }
    }
}
