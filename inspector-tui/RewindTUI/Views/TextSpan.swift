/// A run of text in one style: the unit views compose lines from. A plain value type.
package struct TextSpan: Sendable, Hashable {
    /// The text.
    package var text: String
    /// Its style.
    package var style: CellStyle

    /// Creates a span.
    package init(_ text: String, _ style: CellStyle = .plain) {
        self.text = text
        self.style = style
    }
}

extension ScreenBuffer {
    /// Writes spans one after the other on `row` from `column`, within `width` columns (the last span that
    /// does not fit is cut with `…`).
    /// - Returns: the number of columns written.
    @discardableResult
    package mutating func put(_ spans: [TextSpan], row: Int, column: Int, width: Int) -> Int {
        var used = 0
        for span in spans {
            guard used < width else { break }
            used += put(span.text, row: row, column: column + used, style: span.style, maxWidth: width - used)
        }
        return used
    }
}
