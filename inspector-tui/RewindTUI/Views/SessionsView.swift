/// The sessions pane: one row per live or saved session — status, app, start, events, state — with the
/// selected one marked `▸` (and reversed when the pane has the focus). When the list scrolls, the title says how
/// many sessions are hidden above and below (`▲ 2 ▼ 5 more`). Pure rendering.
package struct SessionsView {
    /// The model to draw.
    package var model: TimelineModel

    /// Creates the view.
    package init(model: TimelineModel) {
        self.model = model
    }

    /// Draws into `rect` (title row + session rows, scrolled to keep the selection visible).
    package func render(into buffer: inout ScreenBuffer, rect: Rect) {
        guard !rect.isEmpty else { return }
        let focused = model.focus == .sessions && model.dialog == nil
        let live = model.sessions.filter { $0.status == .live }.count
        let body = rect.droppingTop(1)
        let first = Self.firstVisible(model, rows: body.height)
        let below = max(0, model.sessions.count - first - body.height)
        var right: [TextSpan] = []
        if first > 0 || below > 0 {
            var more: [String] = []
            if first > 0 { more.append("▲ \(first)") }
            if below > 0 { more.append("▼ \(below)") }
            right.append(TextSpan(more.joined(separator: " ") + " more ", Theme.warning))
        }
        if live > 0 { right.append(TextSpan("\(live) live ", Theme.good)) }
        PaneTitle.render(into: &buffer, rect: rect, focused: focused,
                         left: [TextSpan(" Sessions "), TextSpan("\(model.sessions.count)", Theme.dim)],
                         right: right)
        buffer.fill(body)
        guard !body.isEmpty else { return }
        guard !model.sessions.isEmpty else {
            buffer.put("  No sessions yet: start an app with the Rewind inspector attached.",
                       row: body.row, column: body.column, style: Theme.dim, maxWidth: body.width)
            return
        }
        let selected = model.selectedSessionPosition ?? 0
        for (offset, session) in model.sessions[first...].prefix(body.height).enumerated() {
            let position = first + offset
            renderRow(session, selected: position == selected, focused: focused, into: &buffer,
                      row: body.row + offset, rect: body)
        }
    }

    /// The position (in `model.sessions`) of the first session shown when the pane has `rows` rows below its
    /// title: scrolled just enough to keep the selected one visible.
    package static func firstVisible(_ model: TimelineModel, rows: Int) -> Int {
        let selected = model.selectedSessionPosition ?? 0
        return min(max(0, selected - rows + 1), max(0, model.sessions.count - rows))
    }

    private func renderRow(
        _ session: TimelineSession, selected: Bool, focused: Bool, into buffer: inout ScreenBuffer, row: Int, rect: Rect
    ) {
        let (symbol, symbolStyle, word): (String, CellStyle, String)
        switch session.status {
        case .live: (symbol, symbolStyle, word) = ("●", Theme.good, "live")
        case .ended: (symbol, symbolStyle, word) = ("○", Theme.dim, "ended")
        case .interrupted: (symbol, symbolStyle, word) = ("!", Theme.warning, "interrupted")
        }
        let events = Formatting.grouped(session.eventCount) + " ev"
        // Month, day and time to the second, without the year: sessions of one app started the same minute (a
        // test run) must still look different.
        let started = String(Formatting.dateTime(session.startedAt).dropFirst(5))
        let startWidth = 1 + DisplayWidth.of(started)
        let showStart = rect.width >= 46
        let rightWidth = 12 + 12 + (showStart ? startWidth : 0)
        var column = rect.column
        column += buffer.put(selected ? "▸ " : "  ", row: row, column: column, style: CellStyle(bold: true))
        column += buffer.put(symbol + " ", row: row, column: column, style: symbolStyle)
        let nameWidth = max(4, rect.right - column - rightWidth)
        var name = session.appName
        if let instance = session.instance, !instance.isEmpty { name += " (\(instance))" }
        buffer.put(name, row: row, column: column, style: CellStyle(bold: selected), maxWidth: nameWidth)
        column += nameWidth
        if showStart {
            buffer.put(" " + started, row: row, column: column, style: Theme.dim, maxWidth: startWidth)
            column += startWidth
        }
        buffer.putRightAligned(events, row: row, end: column + 12, minColumn: column)
        column += 12
        buffer.put("  " + word, row: row, column: column, style: symbolStyle, maxWidth: rect.right - column)
        if selected && focused {
            buffer.restyle(Rect(row: row, column: rect.column, width: rect.width, height: 1)) { $0.reverse = true }
        }
    }
}
