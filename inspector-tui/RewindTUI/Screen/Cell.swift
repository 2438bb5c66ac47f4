/// One column of the in-memory screen.
///
/// A wide character (display width 2) occupies two cells: the first holds the character with `width == 2`, the
/// second is a continuation cell with `width == 0` that the painter skips. A plain value type.
package struct Cell: Sendable, Hashable {
    /// The character shown in this column (a space for blank and continuation cells).
    package var character: Character
    /// Display width: 1 for ordinary characters, 2 for the first column of a wide one, 0 for its continuation.
    package var width: UInt8
    /// How the cell is drawn.
    package var style: CellStyle

    /// Creates a cell.
    package init(character: Character, width: UInt8, style: CellStyle) {
        self.character = character
        self.width = width
        self.style = style
    }

    /// A blank cell in the given style.
    package static func blank(_ style: CellStyle = .plain) -> Cell {
        Cell(character: " ", width: 1, style: style)
    }

    /// Whether this is the second column of a wide character.
    package var isContinuation: Bool { width == 0 }
}
