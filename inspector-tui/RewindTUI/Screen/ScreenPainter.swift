import CNCurses

/// Copies `ScreenBuffer`s onto an ncurses window, painting only the cells that changed since the last frame.
///
/// Colours become ncurses colour pairs, allocated on first use (the timeline uses a few dozen at most; when a
/// terminal runs out, the cell falls back to the default pair). In `ColorMode.monochrome`, or on a terminal
/// without colours, only attributes are drawn. Each changed cell is placed at its own coordinates, so a
/// character whose width the system judges differently cannot shift the rest of the row; such characters are
/// painted as `?` (or followed by a space) so that ncurses' picture of the screen stays in step with ours.
///
/// Threading: ncurses is not thread-safe. Create and use a painter only on the thread that owns the terminal
/// (the one running `TimelineApp.run()`).
package final class ScreenPainter {
    private let window: UnsafeMutablePointer<WINDOW>
    /// The colour mode actually in use (monochrome when asked for or when the terminal has no colours).
    package let colorMode: ColorMode
    private let usesDefaultColors: Bool
    private let maxPairs: Int
    private var pairs: [Int: Int16] = [:]
    private var nextPair = 1
    private var previous: ScreenBuffer?
    private var clearTerminal = false
    private var text: [wchar_t] = Array(repeating: 0, count: 6)

    /// A painter for `window`. With `ColorMode.colors` and a colour terminal this starts ncurses colour support
    /// (`start_color`, `use_default_colors`); call it after the terminal is set up and before painting.
    package init(window: UnsafeMutablePointer<WINDOW>, colorMode requested: ColorMode) {
        self.window = window
        if requested == .colors && has_colors() {
            start_color()
            usesDefaultColors = use_default_colors() == OK
            maxPairs = min(Int(Int16.max), Int(rewind_color_pairs()))
            colorMode = .colors
        } else {
            usesDefaultColors = true
            maxPairs = 0
            colorMode = .monochrome
        }
    }

    /// Forgets what is on the terminal: the next `paint` clears it and draws every cell (after a resize, or to
    /// repair a screen another program scribbled on).
    package func invalidate() {
        previous = nil
        clearTerminal = true
    }

    /// Paints `buffer` and refreshes the terminal. Cells equal to the previous frame's are skipped; a change of
    /// size repaints everything.
    package func paint(_ buffer: ScreenBuffer) {
        if let previous, previous.width != buffer.width || previous.height != buffer.height {
            self.previous = nil
        }
        if previous == nil {
            werase(window)
            if clearTerminal {
                clearok(window, true)
                clearTerminal = false
            }
        }
        for row in 0..<buffer.height {
            for column in 0..<buffer.width {
                let cell = buffer[row, column]
                if cell.isContinuation { continue }
                if let previous, previous[row, column] == cell { continue }
                draw(cell, row: row, column: column)
            }
        }
        previous = buffer
        wnoutrefresh(window)
        doupdate()
    }

    private func draw(_ cell: Cell, row: Int, column: Int) {
        let attributes = attributes(for: cell.style)
        let pair = pair(for: cell.style)
        var count = 0
        var systemWidth: Int32 = 1
        for scalar in cell.character.unicodeScalars {
            if count == 0 {
                text[0] = wchar_t(bitPattern: scalar.value)
                systemWidth = scalar.value < 0x7F ? 1 : rewind_wcwidth(text[0])
                count = 1
            } else if count < 5, DisplayWidth.of(scalar) == 0, rewind_wcwidth(wchar_t(bitPattern: scalar.value)) == 0 {
                text[count] = wchar_t(bitPattern: scalar.value)
                count += 1
            }
        }
        if cell.width == 2 && systemWidth == 1 {
            // We think it is wide, the system thinks it is narrow: pad the second column ourselves.
            text[count] = 0
            _ = rewind_put_cell(window, Int32(row), Int32(column), text, attributes, pair)
            putASCII(" ", row: row, column: column + 1, attributes: attributes, pair: pair)
            return
        }
        if systemWidth != Int32(cell.width) {
            putASCII("?", row: row, column: column, attributes: attributes, pair: pair)
            if cell.width == 2 {
                putASCII(" ", row: row, column: column + 1, attributes: attributes, pair: pair)
            }
            return
        }
        text[count] = 0
        _ = rewind_put_cell(window, Int32(row), Int32(column), text, attributes, pair)
    }

    private func putASCII(_ character: Unicode.Scalar, row: Int, column: Int, attributes: attr_t, pair: Int16) {
        let single: [wchar_t] = [wchar_t(bitPattern: character.value), 0]
        _ = rewind_put_cell(window, Int32(row), Int32(column), single, attributes, pair)
    }

    private func attributes(for style: CellStyle) -> attr_t {
        var attributes = rewind_attr_normal()
        if style.bold { attributes |= rewind_attr_bold() }
        if style.reverse { attributes |= rewind_attr_reverse() }
        if style.dim { attributes |= rewind_attr_dim() }
        if style.underline { attributes |= rewind_attr_underline() }
        return attributes
    }

    private func pair(for style: CellStyle) -> Int16 {
        guard colorMode == .colors else { return 0 }
        var foreground = style.foreground
        var background = style.background
        if !usesDefaultColors {
            if foreground == .default { foreground = .white }
            if background == .default { background = .black }
        }
        if foreground == .default && background == .default { return 0 }
        let key = (foreground.rawValue + 1) * 16 + (background.rawValue + 1)
        if let pair = pairs[key] { return pair }
        guard nextPair < maxPairs else { return 0 }
        let pair = Int16(nextPair)
        guard init_pair(pair, Int16(foreground.rawValue), Int16(background.rawValue)) == OK else { return 0 }
        nextPair += 1
        pairs[key] = pair
        return pair
    }
}
