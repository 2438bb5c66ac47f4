/// The timeline pane: a title with the session's id (which every command takes, and which names the app), event
/// count, filter and follow state ("▼ N new" when the user
/// has scrolled away from live events), column headings, and one row per event —
/// index, time, marker, label, patch size, reducer time. Row 0 is the initial state.
///
/// Markers: `J` jump, `R` replay, `D` dropped, `E` error, `C` reconnect, `S` snapshot, `>` dispatch, `~` skip,
/// `N` note, `?` an action whose state was not recorded (the row also says "state unknown", and its ops column
/// `?`). Rows of a recomputed branch read `↳ #K label  (branch N)`: the event K they recompute. An event the
/// app dispatched before it (re)connected shows "before connect" instead of a time earlier than the
/// connection's. With a filter, matching labels are bold yellow and other rows dim. The pinned watches' values
/// (`PinnedColumns`) take compact columns at the right of the rows. Pure rendering: the rows (and the pinned
/// values, read off the UI thread) are fetched by the caller.
package struct TimelineView {
    /// The model to draw.
    package var model: TimelineModel
    /// The rows in view (indices `scrollTop…`; missing indices are drawn empty).
    package var rows: [TimelineEvent]
    /// Why the rows could not be read, if they could not.
    package var error: String?

    /// Creates the view.
    package init(model: TimelineModel, rows: [TimelineEvent], error: String? = nil) {
        self.model = model
        self.rows = rows
        self.error = error
    }

    /// Draws into `rect`.
    package func render(into buffer: inout ScreenBuffer, rect: Rect) {
        guard !rect.isEmpty else { return }
        let focused = model.focus == .timeline && model.dialog == nil
        renderTitle(into: &buffer, rect: rect, focused: focused)
        let headingRow = rect.droppingTop(1)
        guard !headingRow.isEmpty else { return }
        // The session map takes the right edge of the rows when it is shown (`M`), the pinned watches (`w`) the
        // columns left of it.
        let mapWidth = model.showsMap ? SessionMapView.width : 0
        let pins = PinnedColumns(pinned: model.pinnedPointers, width: rect.width - mapWidth)
        let columns = Columns(width: rect.width - mapWidth - pins.width, eventCount: model.eventCount,
                              timeFormat: model.timeFormat, wideTime: rows.contains(where: \.beforeConnect))
        buffer.fill(headingRow.top(1), style: Theme.heading)
        buffer.put(columns.heading, row: headingRow.row, column: rect.column, style: Theme.heading, maxWidth: rect.width)
        let pinsColumn = rect.column + rect.width - mapWidth - pins.width
        for (offset, pointer) in pins.pointers.enumerated() {
            buffer.putRightAligned(PinnedColumns.heading(pointer), row: headingRow.row,
                                   end: pinsColumn + (offset + 1) * PinnedColumns.columnWidth,
                                   minColumn: pinsColumn + offset * PinnedColumns.columnWidth + 1, style: Theme.heading)
        }
        let fullBody = headingRow.droppingTop(1)
        buffer.fill(fullBody)
        let body = Rect(row: fullBody.row, column: fullBody.column, width: fullBody.width - mapWidth - pins.width,
                        height: fullBody.height)
        if mapWidth > 0, model.selectedSession != nil {
            SessionMapView(model: model).render(
                into: &buffer,
                rect: Rect(row: fullBody.row, column: body.right + pins.width, width: mapWidth, height: fullBody.height))
        }
        guard let session = model.selectedSession else {
            buffer.put("  No session selected.", row: body.row, column: body.column, style: Theme.dim, maxWidth: body.width)
            return
        }
        if let error {
            buffer.put("  Cannot read events: \(error)", row: body.row, column: body.column, style: Theme.error,
                       maxWidth: body.width)
            return
        }
        var byIndex: [Int: TimelineEvent] = [:]
        for row in rows { byIndex[row.index] = row }
        for line in 0..<body.height {
            guard let index = model.index(atPosition: model.scrollTop + line), index <= session.eventCount else { break }
            let row = body.row + line
            if index == 0 {
                renderInitialRow(columns: columns, session: session, row: row, rect: body, into: &buffer)
            } else if let event = byIndex[index] {
                renderRow(event, columns: columns, session: session, row: row, rect: body, into: &buffer)
            } else {
                buffer.putRightAligned(String(index), row: row, end: body.column + columns.indexWidth, style: Theme.dim)
            }
            renderPins(pins, index: index, row: row, column: body.right, into: &buffer)
            if index == model.cursor {
                buffer.restyle(Rect(row: row, column: body.column, width: body.width + pins.width, height: 1)) {
                    $0.reverse = true
                    $0.dim = false
                }
            }
        }
    }

    // MARK: - Parts

    /// The pinned watches' values after event `index`, from `column` on (see `PinnedColumns`).
    private func renderPins(_ pins: PinnedColumns, index: Int, row: Int, column: Int, into buffer: inout ScreenBuffer) {
        guard !pins.pointers.isEmpty else { return }
        let state = model.pinnedValues
        let known = state.flatMap { $0.session == model.selectedSessionID && $0.pointers == model.pinnedPointers
            ? $0.values[index] : nil }
        for offset in pins.pointers.indices {
            let value = known.flatMap { offset < $0.count ? $0[offset] : nil }
            let left = column + offset * PinnedColumns.columnWidth
            buffer.putRightAligned(PinnedColumns.text(value), row: row, end: left + PinnedColumns.columnWidth,
                                   minColumn: left + 1, style: PinnedColumns.style(value))
        }
    }

    private func renderTitle(into buffer: inout ScreenBuffer, rect: Rect, focused: Bool) {
        // The session id (which names the app too) rather than the word "Timeline": every command takes it.
        var left = [TextSpan(" ")]
        if let session = model.selectedSession {
            left.append(TextSpan(session.id + " ", CellStyle(bold: true)))
            let count = session.eventCount == 1 ? "1 event " : Formatting.grouped(session.eventCount) + " events "
            left.append(TextSpan(count, Theme.dim))
        } else {
            left.append(TextSpan("Timeline "))
        }
        var right: [TextSpan] = []
        if let hiding = model.hiding, hiding.session == model.selectedSessionID {
            right.append(TextSpan("\(hiding.rows == nil ? "filtering: " : "")\(hiding.description) ", Theme.match))
        } else if let filter = model.filter {
            right.append(TextSpan("/\(filter.pattern)/ ", Theme.match))
        }
        if model.paused {
            right.append(TextSpan("‖ paused ", Theme.warning))
        } else if model.following {
            if model.selectedSession?.status == .live {
                right.append(TextSpan("● following ", Theme.good))
            }
        } else if model.unseenCount > 0 {
            right.append(TextSpan("▼ \(Formatting.grouped(model.unseenCount)) new · f follow ", Theme.warning))
        }
        PaneTitle.render(into: &buffer, rect: rect, focused: focused, left: left, right: right)
    }

    private func renderInitialRow(
        columns: Columns, session: TimelineSession, row: Int, rect: Rect, into buffer: inout ScreenBuffer
    ) {
        buffer.putRightAligned("0", row: row, end: rect.column + columns.indexWidth, style: Theme.dim)
        let time = columns.time(session.startedAt, sessionStart: session.startedAt)
        buffer.putRightAligned(time, row: row, end: rect.column + columns.timeEnd, style: Theme.dim)
        buffer.put("initial state", row: row, column: rect.column + columns.labelStart, style: Theme.dim,
                   maxWidth: columns.labelWidth)
    }

    private func renderRow(
        _ event: TimelineEvent, columns: Columns, session: TimelineSession, row: Int, rect: Rect,
        into buffer: inout ScreenBuffer
    ) {
        let matches = model.filter.map { $0.matches(event) }
        let muted = matches == false || event.isSkipped
        func style(_ base: CellStyle) -> CellStyle { muted ? base.dimmed : base }

        buffer.putRightAligned(String(event.index), row: row, end: rect.column + columns.indexWidth, style: style(Theme.dim))
        let time = event.beforeConnect ? Columns.beforeConnect : columns.time(event.time, sessionStart: session.startedAt)
        buffer.putRightAligned(time, row: row, end: rect.column + columns.timeEnd,
                               style: style(event.beforeConnect ? Theme.dim : Theme.plain))
        let marker: Character
        let markerStyle: CellStyle
        if event.isSkipped {
            (marker, markerStyle) = ("~", Theme.marker(.skip))
        } else if event.stateUnknown && event.kind == .action {
            (marker, markerStyle) = ("?", Theme.unknown)
        } else {
            (marker, markerStyle) = (event.kind.marker, Theme.marker(event.kind))
        }
        buffer.put(String(marker), row: row, column: rect.column + columns.markerColumn, style: style(markerStyle))

        var label: [TextSpan] = []
        if event.branch != 0 {
            label.append(TextSpan("↳ ", style(Theme.dim)))
            if let recomputed = event.recomputes {
                label.append(TextSpan("#\(recomputed) ", style(Theme.dim)))
            }
        }
        let labelStyle: CellStyle
        if matches == true {
            labelStyle = Theme.match
        } else if event.kind == .action {
            labelStyle = style(Theme.plain)
        } else {
            labelStyle = style(Theme.marker(event.kind))
        }
        label.append(TextSpan(event.displayLabel, labelStyle))
        if event.stateUnknown {
            label.append(TextSpan("  state unknown", style(Theme.unknown)))
        }
        if let lost = event.lostActions {
            label.append(TextSpan(lost == 1 ? "  1 action lost" : "  \(Formatting.grouped(lost)) actions lost",
                                  style(Theme.error)))
        }
        if event.branch != 0 && event.kind == .action {
            label.append(TextSpan("  (branch \(event.branch))", style(Theme.dim)))
        }
        if let detail = event.detail, event.kind != .action {
            label.append(TextSpan("  " + detail, style(Theme.dim)))
        }
        buffer.put(label, row: row, column: rect.column + columns.labelStart, width: columns.labelWidth)

        if columns.showsPatch {
            if let size = event.patchSize {
                buffer.putRightAligned(size > 99_999 ? "99999+" : String(size), row: row,
                                       end: rect.column + columns.patchEnd, style: style(Theme.dim))
            } else if event.stateUnknown && event.kind == .action {
                buffer.putRightAligned("?", row: row, end: rect.column + columns.patchEnd, style: style(Theme.unknown))
            }
        }
        if columns.showsReducer, let micros = event.reducerMicros {
            buffer.putRightAligned(Formatting.duration(micros: micros), row: row,
                                   end: rect.column + columns.reducerEnd, style: style(Theme.dim))
        }
    }

    /// Column positions for a pane width.
    struct Columns {
        let indexWidth: Int
        let timeEnd: Int
        let markerColumn: Int
        let labelStart: Int
        let labelWidth: Int
        let showsPatch: Bool
        let showsReducer: Bool
        let patchEnd: Int
        let reducerEnd: Int
        let timeFormat: TimeFormat
        let heading: String

        /// What the time column says for an event dispatched before its connection started.
        static let beforeConnect = "before connect"

        /// `wideTime`: some row shows `beforeConnect`, which needs a wider time column.
        init(width: Int, eventCount: Int, timeFormat: TimeFormat, wideTime: Bool = false) {
            self.timeFormat = timeFormat
            indexWidth = max(3, String(eventCount).count) + 1
            let timeWidth = wideTime ? Self.beforeConnect.count : (timeFormat == .relative ? 11 : 12)
            timeEnd = indexWidth + 1 + timeWidth
            markerColumn = timeEnd + 1
            labelStart = markerColumn + 2
            showsReducer = width >= 50
            showsPatch = width >= 42
            reducerEnd = width - 1
            patchEnd = showsReducer ? reducerEnd - 8 : width - 1
            let labelEnd = showsPatch ? patchEnd - 6 : width - 1
            labelWidth = max(1, labelEnd - labelStart)
            var heading = String(repeating: " ", count: indexWidth - 1) + "#"
            heading += String(repeating: " ", count: timeEnd - heading.count - 4) + "time"
            heading += String(repeating: " ", count: labelStart - heading.count) + "label"
            if showsPatch {
                heading += String(repeating: " ", count: max(1, patchEnd - 3 - heading.count)) + "ops"
            }
            if showsReducer {
                heading += String(repeating: " ", count: max(1, reducerEnd - 7 - heading.count)) + "reducer"
            }
            self.heading = heading
        }

        func time(_ unixSeconds: Double, sessionStart: Double) -> String {
            switch timeFormat {
            case .relative: return Formatting.relativeTime(unixSeconds - sessionStart)
            case .absolute: return Formatting.clockTime(unixSeconds)
            }
        }
    }
}
