/// A pane's title row: reverse video across the pane when it has the focus, bold underlined otherwise (both
/// visible in monochrome). Pure rendering helper.
package enum PaneTitle {
    /// How much of `left` stays when `right` needs the room: its first columns (the pane's name or the session id's
    /// start), so the reader still knows which pane this is.
    package static let leftKept = 12

    /// Draws `left` and `right` (right-aligned) on the first row of `rect`. `right` carries what must not go
    /// unseen (the timeline's filter), so when both do not fit, `left` is cut (with `…`) down to `leftKept`
    /// columns, and only then `right`, from its end.
    package static func render(
        into buffer: inout ScreenBuffer, rect: Rect, focused: Bool, left: [TextSpan], right: [TextSpan] = []
    ) {
        guard !rect.isEmpty else { return }
        let row = rect.top(1)
        let base = focused ? Theme.bar : Theme.title
        buffer.fill(row, style: base)
        let leftWidth = DisplayWidth.of(left.map(\.text).joined())
        let rightWidth = DisplayWidth.of(right.map(\.text).joined())
        var leftShown = min(leftWidth, rect.width)
        if !right.isEmpty && leftShown + rightWidth + 1 > rect.width {
            leftShown = max(min(leftWidth, leftKept), rect.width - rightWidth - 1)
        }
        let used = buffer.put(left.map { TextSpan($0.text, merge($0.style, into: base)) },
                              row: rect.row, column: rect.column, width: leftShown)
        let rightShown = min(rightWidth, rect.width - used - 1)
        if !right.isEmpty && rightShown > 0 {
            buffer.put(right.map { TextSpan($0.text, merge($0.style, into: base)) },
                       row: rect.row, column: rect.right - rightShown, width: rightShown)
        }
    }

    /// `style`'s colours and attributes on top of the title's base style.
    private static func merge(_ style: CellStyle, into base: CellStyle) -> CellStyle {
        var merged = base
        if style.foreground != .default { merged.foreground = style.foreground }
        if style.background != .default { merged.background = style.background }
        merged.bold = merged.bold || style.bold
        merged.dim = style.dim
        merged.underline = merged.underline || style.underline
        return merged
    }
}
