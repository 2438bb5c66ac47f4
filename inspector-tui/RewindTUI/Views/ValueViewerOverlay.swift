/// The value viewer: a framed overlay over the panes (between the header and the status row above the footer,
/// which stays visible for what `o` and `y` report) showing the whole value, wrapped, from its scroll position;
/// the title names the value's JSON Pointer and the lines shown. Pure rendering.
package struct ValueViewerOverlay {
    /// What to show.
    package var viewer: ValueViewerState

    /// Creates the view.
    package init(viewer: ValueViewerState) {
        self.viewer = viewer
    }

    /// The columns of text on a screen `screenWidth` wide (the controller wraps to it).
    package static func textWidth(screenWidth: Int) -> Int { max(1, screenWidth - 4) }

    /// The rows of text on a screen `screenHeight` high (a page, for the controller).
    package static func textRows(screenHeight: Int) -> Int { max(1, screenHeight - 5) }

    /// The overlay's frame on `screen`: below the header, above the status row and the footer.
    package static func frame(screen: Rect) -> Rect { screen.droppingTop(1).droppingBottom(2) }

    /// Draws on `screen` (within `frame(screen:)`).
    package func render(into buffer: inout ScreenBuffer, screen: Rect) {
        let area = Self.frame(screen: screen)
        let rows = Self.textRows(screenHeight: screen.height)
        let first = min(viewer.scroll, max(0, viewer.lines.count - 1))
        let last = min(viewer.lines.count, first + rows)
        let place = viewer.lines.count > rows
            ? "lines \(Formatting.grouped(first + 1))–\(Formatting.grouped(last)) of \(Formatting.grouped(viewer.lines.count))"
            : Formatting.grouped(viewer.lines.count) + (viewer.lines.count == 1 ? " line" : " lines")
        let source: String
        switch viewer.tab {
        case .action: source = "action"
        case .diff: source = "diff"
        case .state: source = "state"
        }
        let title = "\(source) \(viewer.path.isEmpty ? "(whole)" : viewer.path) · \(place)"
        // As tall as the text needs (a short value leaves the panes below it visible), at most the frame.
        let box = area.top(min(area.height, max(3, viewer.lines.count + 2)))
        let inner = Box.draw(into: &buffer, rect: box, title: title)
        for (offset, line) in viewer.lines[first..<last].enumerated() where offset < inner.height {
            buffer.put(line, row: inner.row + offset, column: inner.column, maxWidth: inner.width)
        }
    }
}
