/// A pane's title row: reverse video across the pane when it has the focus, bold underlined otherwise (both
/// visible in monochrome). Pure rendering helper.
public enum PaneTitle {
    /// Draws `left` and `right` (right-aligned) on the first row of `rect`.
    public static func render(
        into buffer: inout ScreenBuffer, rect: Rect, focused: Bool, left: [TextSpan], right: [TextSpan] = []
    ) {
        guard !rect.isEmpty else { return }
        let row = rect.top(1)
        let base = focused ? Theme.bar : Theme.title
        buffer.fill(row, style: base)
        let used = buffer.put(left.map { TextSpan($0.text, merge($0.style, into: base)) },
                              row: rect.row, column: rect.column, width: rect.width)
        let rightText = right.map(\.text).joined()
        let rightWidth = DisplayWidth.of(rightText)
        if !right.isEmpty && used + rightWidth + 1 <= rect.width {
            buffer.put(right.map { TextSpan($0.text, merge($0.style, into: base)) },
                       row: rect.row, column: rect.right - rightWidth, width: rightWidth)
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
