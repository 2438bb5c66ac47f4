/// "Quit?" when apps are connected: says how many and what quitting does, and which keys answer.
/// Pure rendering.
package struct ConfirmQuitOverlay {
    /// Number of connected apps.
    package var connectedApps: Int

    /// Creates the view.
    package init(connectedApps: Int) {
        self.connectedApps = connectedApps
    }

    /// Draws centred in `area`.
    package func render(into buffer: inout ScreenBuffer, area: Rect) {
        let apps = connectedApps == 1 ? "1 app is" : "\(connectedApps) apps are"
        let lines = [
            [TextSpan("\(apps) connected. Quitting stops recording")],
            [TextSpan("and disconnects them (they keep running).")],
            [],
            [TextSpan("y", Theme.key), TextSpan(" quit    "), TextSpan("n", Theme.key), TextSpan(" or "),
             TextSpan("Esc", Theme.key), TextSpan(" stay")],
        ]
        let box = Box.centered(width: 50, height: lines.count + 2, in: area)
        let inner = Box.draw(into: &buffer, rect: box, title: "Quit rewind?", style: Theme.warning)
        for (offset, spans) in lines.enumerated() where offset < inner.height {
            buffer.put(spans, row: inner.row + offset, column: inner.column, width: inner.width)
        }
    }
}
