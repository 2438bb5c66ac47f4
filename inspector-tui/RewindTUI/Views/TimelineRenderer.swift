/// Renders a whole frame from the model: header, sessions, timeline, detail, status/prompt, footer, and any
/// overlay, into a fresh `ScreenBuffer` of the model's screen size.
///
/// Reads from the data source only what is on screen: the visible rows, and (through the detail cache) the
/// selected event's detail and state. Threading: use on the UI thread (the detail cache is not thread-safe).
package struct TimelineRenderer {
    /// Where rows come from.
    package let dataSource: any TimelineDataSource
    /// The detail pane's content (shared with the controller).
    package let detailContent: DetailContentCache

    /// A renderer reading from `dataSource`, with the detail cache the controller uses.
    package init(dataSource: any TimelineDataSource, detailContent: DetailContentCache) {
        self.dataSource = dataSource
        self.detailContent = detailContent
    }

    /// The frame for `model` at monotonic time `now` (seconds; used to throttle detail updates while following).
    package func render(_ model: TimelineModel, now: Double) -> ScreenBuffer {
        var buffer = ScreenBuffer(width: model.screenWidth, height: model.screenHeight)
        let layout = model.layout
        guard !layout.isTooSmall else {
            let message = "Terminal too small: \(model.screenWidth)×\(model.screenHeight) "
                + "(rewind needs \(TimelineLayout.minimumWidth)×\(TimelineLayout.minimumHeight)). q quits."
            buffer.put(message, row: model.screenHeight / 2, column: 0, style: Theme.warning)
            return buffer
        }
        HeaderView(header: model.header, paused: model.paused, heldEvents: model.heldEvents).render(into: &buffer, rect: layout.header)
        SessionsView(model: model).render(into: &buffer, rect: layout.sessions)

        var rows: [TimelineEvent] = []
        var rowsError: String?
        if let session = model.selectedSession, session.eventCount > 0, model.visibleRows != nil {
            // Only some rows are shown: read each one (they may lie far apart).
            do {
                for position in model.scrollTop..<(model.scrollTop + layout.timelineRows) {
                    guard let index = model.index(atPosition: position) else { break }
                    if index > 0 { rows += try dataSource.events(session: session.id, range: index...index) }
                }
            } catch {
                rowsError = "\(error)"
            }
        } else if let session = model.selectedSession, session.eventCount > 0 {
            let first = max(1, model.scrollTop)
            let last = min(session.eventCount, model.scrollTop + layout.timelineRows - 1)
            if first <= last {
                do {
                    rows = try dataSource.events(session: session.id, range: first...last)
                } catch {
                    rowsError = "\(error)"
                }
            }
        }
        TimelineView(model: model, rows: rows, error: rowsError).render(into: &buffer, rect: layout.timeline)
        if model.wantsChart { SessionChartView(model: model).render(into: &buffer, rect: layout.chart) }
        for row in layout.separator.row..<layout.separator.bottom where layout.separator.width > 0 {
            buffer.put("│", row: row, column: layout.separator.column, style: Theme.dim)
        }
        let detail = detailContent.content(for: model, now: now)
        DetailView(model: model, content: detail).render(into: &buffer, rect: layout.detail)
        let detailCursor = min(max(0, model.detailCursor), max(0, detail.lines.count - 1))
        PromptView(model: model).render(into: &buffer, rect: layout.status)
        FooterView(model: model, cursorEvent: rows.first { $0.index == model.cursor },
                   detailLine: detail.lines.indices.contains(detailCursor) ? detail.lines[detailCursor] : nil).render(into: &buffer, rect: layout.footer)

        let overlayArea = layout.screen.droppingTop(1).droppingBottom(1)
        switch model.dialog {
        case .help:
            HelpOverlay(facts: model.facts).render(into: &buffer, area: overlayArea, scroll: model.helpScroll)
        case .confirmQuit:
            ConfirmQuitOverlay(connectedApps: model.header.connectedApps).render(into: &buffer, area: overlayArea)
        case .viewer(let viewer):
            ValueViewerOverlay(viewer: viewer).render(into: &buffer, screen: layout.screen)
        case .stats(let stats):
            StatsOverlay(state: stats).render(into: &buffer, area: overlayArea)
        case .prompt, .confirmDelete, nil:
            break
        }
        return buffer
    }
}
