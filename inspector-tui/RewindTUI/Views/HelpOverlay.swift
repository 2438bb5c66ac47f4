/// The `?` overlay: every key, grouped, in two columns when the terminal is wide enough (one otherwise), in a
/// framed box over the panes. Pure rendering.
public struct HelpOverlay {
    /// Creates the view.
    public init() {}

    /// Draws centred in `area`.
    public func render(into buffer: inout ScreenBuffer, area: Rect) {
        let sections = KeyBindings.help
        let keyWidth = sections.flatMap(\.bindings).map { DisplayWidth.of($0.keys) }.max() ?? 0
        let actionWidth = sections.flatMap(\.bindings).map { DisplayWidth.of($0.action) }.max() ?? 0
        let columnWidth = keyWidth + 2 + actionWidth
        let twoColumns = area.width >= 2 * columnWidth + 8
        let groups: [[KeyBindings.Section]] = twoColumns
            ? [Array(sections.prefix(2)), Array(sections.dropFirst(2))]
            : [sections]
        let heights = groups.map { group in group.reduce(0) { $0 + $1.bindings.count + 2 } - 1 }
        let innerHeight = (heights.max() ?? 0)
        let innerWidth = twoColumns ? 2 * columnWidth + 4 : columnWidth
        let box = Box.centered(width: innerWidth + 4, height: innerHeight + 2, in: area)
        let inner = Box.draw(into: &buffer, rect: box, title: "Keys — any key closes")
        for (groupOffset, group) in groups.enumerated() {
            let left = inner.column + groupOffset * (columnWidth + 4)
            var row = inner.row
            for section in group {
                guard row < inner.bottom else { break }
                buffer.put(section.title, row: row, column: left, style: Theme.title, maxWidth: inner.right - left)
                row += 1
                for binding in section.bindings where row < inner.bottom {
                    buffer.put(binding.keys, row: row, column: left, style: Theme.key, maxWidth: keyWidth)
                    buffer.put(binding.action, row: row, column: left + keyWidth + 2,
                               maxWidth: max(0, inner.right - left - keyWidth - 2))
                    row += 1
                }
                row += 1
            }
        }
    }
}
