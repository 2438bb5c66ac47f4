/// A framed, blanked rectangle for overlays (help, confirmation), drawn with box-drawing characters.
/// Pure rendering helper.
package enum Box {
    /// Blanks `rect`, frames it and writes `title` into the top edge. Returns the inner rectangle.
    @discardableResult
    package static func draw(into buffer: inout ScreenBuffer, rect: Rect, title: String, style: CellStyle = .plain) -> Rect {
        guard rect.width >= 2, rect.height >= 2 else { return Rect(row: rect.row, column: rect.column, width: 0, height: 0) }
        buffer.fill(rect)
        let horizontal = String(repeating: "─", count: rect.width - 2)
        buffer.put("┌" + horizontal + "┐", row: rect.row, column: rect.column, style: style)
        buffer.put("└" + horizontal + "┘", row: rect.bottom - 1, column: rect.column, style: style)
        for row in (rect.row + 1)..<(rect.bottom - 1) {
            buffer.put("│", row: row, column: rect.column, style: style)
            buffer.put("│", row: row, column: rect.right - 1, style: style)
        }
        if !title.isEmpty {
            buffer.put(" \(title) ", row: rect.row, column: rect.column + 2, style: style.bolded, maxWidth: rect.width - 4)
        }
        return Rect(row: rect.row + 1, column: rect.column + 2, width: rect.width - 4, height: rect.height - 2)
    }

    /// A `width`×`height` rectangle centred in `area` (shrunk to fit).
    package static func centered(width: Int, height: Int, in area: Rect) -> Rect {
        let fittedWidth = min(width, area.width)
        let fittedHeight = min(height, area.height)
        return Rect(row: area.row + (area.height - fittedHeight) / 2,
                    column: area.column + (area.width - fittedWidth) / 2,
                    width: fittedWidth, height: fittedHeight)
    }
}
