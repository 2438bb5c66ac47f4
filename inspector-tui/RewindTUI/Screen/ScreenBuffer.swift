import RewindWire

/// The in-memory screen every view renders into and the painter copies to the terminal.
///
/// A grid of `height` rows by `width` columns of `Cell`s. Wide characters take two cells and are never split:
/// text that does not fit is cut at a character boundary and ends with `…`. Control characters (and the other
/// characters `TerminalText` escapes) are shown as visible escapes such as `\x1B`, so that text from an app can
/// neither act on the terminal nor hide. Because layout happens here and not in ncurses, every view is testable through `lines`.
///
/// A value type with no shared state: build and read it on one thread, or copy it across threads.
package struct ScreenBuffer: Sendable, Equatable {
    /// Number of columns.
    package let width: Int
    /// Number of rows.
    package let height: Int
    /// The cells, row by row (`row * width + column`).
    package private(set) var cells: [Cell]

    /// A blank screen of the given size (negative sizes count as zero), every cell a space in `style`.
    package init(width: Int, height: Int, style: CellStyle = .plain) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank(style), count: self.width * self.height)
    }

    /// The whole screen as a rectangle.
    package var bounds: Rect { Rect(row: 0, column: 0, width: width, height: height) }

    /// The cell at `row`, `column` (both must be inside the screen).
    package subscript(row: Int, column: Int) -> Cell {
        cells[row * width + column]
    }

    /// Blanks the whole screen.
    package mutating func clear(style: CellStyle = .plain) {
        for index in cells.indices {
            cells[index] = .blank(style)
        }
    }

    /// Blanks the part of `rect` that lies on the screen, in `style`.
    package mutating func fill(_ rect: Rect, style: CellStyle = .plain) {
        let clipped = clip(rect)
        guard !clipped.isEmpty else { return }
        for row in clipped.row..<clipped.bottom {
            for column in clipped.column..<clipped.right {
                setCell(row: row, column: column, character: " ", width: 1, style: style)
            }
        }
    }

    /// Changes the style of every cell in `rect` (clipped to the screen), keeping the characters.
    package mutating func restyle(_ rect: Rect, _ transform: (inout CellStyle) -> Void) {
        let clipped = clip(rect)
        guard !clipped.isEmpty else { return }
        for row in clipped.row..<clipped.bottom {
            let base = row * width
            for column in clipped.column..<clipped.right {
                transform(&cells[base + column].style)
            }
        }
    }

    /// Writes `text` on `row` from `column`, using at most `maxWidth` columns (and never past the right edge).
    ///
    /// Text wider than the space is cut at a character boundary and ends with `…` in the last column; a wide
    /// character that would straddle the cut is replaced by a space. Writing over half of an existing wide
    /// character blanks its other half. Control characters are written as their `TerminalText` escapes (`\x1B`,
    /// `\n`); zero-width characters on their own are dropped. Rows and columns outside the screen are ignored.
    /// - Returns: the number of columns written.
    @discardableResult
    package mutating func put(
        _ text: String, row: Int, column: Int, style: CellStyle = .plain, maxWidth: Int? = nil
    ) -> Int {
        guard row >= 0, row < height, column >= 0, column < width else { return 0 }
        let limit = min(width - column, maxWidth ?? Int.max)
        guard limit > 0 else { return 0 }
        let text = TerminalText.escaped(text)
        var used = 0
        for character in text {
            var shown = character
            var characterWidth: Int
            if let first = character.unicodeScalars.first, first.value < 0x20 || (first.value >= 0x7F && first.value < 0xA0) {
                shown = " "
                characterWidth = 1
            } else {
                characterWidth = DisplayWidth.of(character)
                if characterWidth == 0 { continue }
            }
            if used + characterWidth > limit {
                truncate(row: row, start: column, used: used, limit: limit, style: style)
                return limit
            }
            setCell(row: row, column: column + used, character: shown, width: characterWidth, style: style)
            used += characterWidth
        }
        return used
    }

    /// Writes `text` right-aligned so that it ends just before column `end` (exclusive), truncating on the
    /// left edge of `minColumn` with the same rules as `put`.
    /// - Returns: the first column written.
    @discardableResult
    package mutating func putRightAligned(
        _ text: String, row: Int, end: Int, minColumn: Int = 0, style: CellStyle = .plain
    ) -> Int {
        let available = max(0, end - minColumn)
        let text = TerminalText.escaped(text)
        let textWidth = DisplayWidth.of(text)
        let start = end - min(textWidth, available)
        put(text, row: row, column: start, style: style, maxWidth: end - start)
        return start
    }

    /// Row `row` as plain text: one character per cell, wide characters once, trailing spaces kept.
    package func line(_ row: Int) -> String {
        var text = ""
        text.reserveCapacity(width)
        let base = row * width
        for column in 0..<width {
            let cell = cells[base + column]
            if cell.width != 0 {
                text.append(cell.character)
            }
        }
        return text
    }

    /// Every row as plain text (see `line(_:)`), for tests and text rendering.
    package var lines: [String] {
        (0..<height).map(line)
    }

    /// The screen as text: rows without trailing spaces, joined by newlines.
    package var text: String {
        lines.map { line in
            var trimmed = Substring(line)
            while trimmed.last == " " { trimmed.removeLast() }
            return String(trimmed)
        }.joined(separator: "\n")
    }

    // MARK: - Cell writing

    private func clip(_ rect: Rect) -> Rect {
        let top = max(0, rect.row)
        let left = max(0, rect.column)
        let bottom = min(height, rect.bottom)
        let right = min(width, rect.right)
        return Rect(row: top, column: left, width: right - left, height: bottom - top)
    }

    /// Ends a line that overflowed: the last column of the limit gets `…`, removing whatever half-written
    /// characters lie under or beyond it.
    private mutating func truncate(row: Int, start: Int, used: Int, limit: Int, style: CellStyle) {
        let target = start + limit - 1
        var column = start + used
        while column < target {
            setCell(row: row, column: column, character: " ", width: 1, style: style)
            column += 1
        }
        setCell(row: row, column: target, character: "…", width: 1, style: style)
    }

    /// Stores one character, keeping wide characters whole: overwriting either half of a wide character blanks
    /// the other half.
    private mutating func setCell(row: Int, column: Int, character: Character, width characterWidth: Int, style: CellStyle) {
        let base = row * width
        let index = base + column
        // Overwriting the continuation of a wide character: its first half would be orphaned.
        if cells[index].width == 0, column > 0 {
            cells[index - 1] = .blank(cells[index - 1].style)
        }
        let oldWidth = cells[index].width
        cells[index] = Cell(character: character, width: UInt8(characterWidth), style: style)
        if characterWidth == 2 {
            guard column + 1 < width else {
                cells[index] = .blank(style)
                return
            }
            let next = index + 1
            if cells[next].width == 2, column + 2 < width {
                cells[next + 1] = .blank(cells[next + 1].style)
            }
            cells[next] = Cell(character: " ", width: 0, style: style)
        } else if oldWidth == 2, column + 1 < width {
            cells[index + 1] = .blank(cells[index + 1].style)
        }
    }
}
