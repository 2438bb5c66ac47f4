/// The top row: name, listening address, connected apps, recording state, events/s and a sparkline of the last
/// minute (or, for saved sessions, the caption), and `PAUSED` while live events are held back. Pure rendering: safe on any thread with its own buffer.
package struct HeaderView {
    /// What to show.
    package var header: TimelineHeader
    /// Whether the timeline holds live events back (`p`): the header then says `PAUSED` and how many are held.
    package var paused: Bool
    /// Events held back while paused.
    package var heldEvents: Int

    /// Creates the view.
    package init(header: TimelineHeader, paused: Bool = false, heldEvents: Int = 0) {
        self.header = header
        self.paused = paused
        self.heldEvents = heldEvents
    }

    /// Draws into `rect` (its first row).
    package func render(into buffer: inout ScreenBuffer, rect: Rect) {
        guard !rect.isEmpty else { return }
        buffer.fill(rect.top(1))
        var spans = [TextSpan(" rewind ", CellStyle(bold: true))]
        if let address = header.listeningAddress {
            // Off the default port, what an app must be given: REWIND_URL=ws://…
            spans.append(TextSpan(header.appURL.map { "REWIND_URL=\($0)" } ?? address, CellStyle(foreground: .cyan)))
            spans.append(TextSpan(" · ", Theme.dim))
            let apps = header.connectedApps == 1 ? "1 app" : "\(header.connectedApps) apps"
            spans.append(TextSpan(apps, header.connectedApps > 0 ? Theme.good : Theme.dim))
            spans.append(TextSpan(" · ", Theme.dim))
            spans.append(header.isRecording
                ? TextSpan("● REC", CellStyle(foreground: .red, bold: true))
                : TextSpan("○ not recording", Theme.dim))
        } else if let caption = header.caption {
            spans.append(TextSpan(caption, Theme.dim))
        }
        if paused {
            if spans.count > 1 { spans.append(TextSpan(" · ", Theme.dim)) }
            spans.append(TextSpan(heldEvents > 0 ? "‖ PAUSED (\(heldEvents) held)" : "‖ PAUSED", Theme.warning))
        }
        let used = buffer.put(spans, row: rect.row, column: rect.column, width: rect.width)
        guard header.listeningAddress != nil else { return }
        let rate = Formatting.rate(header.eventsPerSecond.last ?? 0)
        let room = rect.width - used - 3
        guard room >= rate.count else { return }
        let sparkWidth = min(60, room - rate.count - 1)
        var right = rate
        if sparkWidth >= 4 && !header.eventsPerSecond.isEmpty {
            right += " " + Sparkline.render(header.eventsPerSecond, width: min(sparkWidth, header.eventsPerSecond.count))
        }
        buffer.putRightAligned(right + " ", row: rect.row, end: rect.right, minColumn: rect.column + used + 1,
                               style: CellStyle(foreground: .green))
    }
}
