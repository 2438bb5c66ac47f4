/// A rectangle of the screen in cells: the area a view renders into. A plain value type.
package struct Rect: Sendable, Hashable, CustomStringConvertible {
    /// First row (0 is the top of the screen).
    package var row: Int
    /// First column (0 is the left edge).
    package var column: Int
    /// Number of columns; never negative.
    package var width: Int
    /// Number of rows; never negative.
    package var height: Int

    /// Creates a rectangle; negative sizes are clamped to zero.
    package init(row: Int, column: Int, width: Int, height: Int) {
        self.row = row
        self.column = column
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// Whether the rectangle has no cells.
    package var isEmpty: Bool { width == 0 || height == 0 }

    /// One past the last row.
    package var bottom: Int { row + height }

    /// One past the last column.
    package var right: Int { column + width }

    /// The rectangle without its first `count` rows.
    package func droppingTop(_ count: Int) -> Rect {
        let taken = min(max(0, count), height)
        return Rect(row: row + taken, column: column, width: width, height: height - taken)
    }

    /// The rectangle without its last `count` rows.
    package func droppingBottom(_ count: Int) -> Rect {
        Rect(row: row, column: column, width: width, height: height - min(max(0, count), height))
    }

    /// The first `count` rows of the rectangle.
    package func top(_ count: Int) -> Rect {
        Rect(row: row, column: column, width: width, height: min(max(0, count), height))
    }

    /// The last `count` rows of the rectangle.
    package func bottom(_ count: Int) -> Rect {
        let kept = min(max(0, count), height)
        return Rect(row: row + height - kept, column: column, width: width, height: kept)
    }

    /// The rectangle shrunk by `count` columns on the left and the right.
    package func insetHorizontally(_ count: Int) -> Rect {
        let inset = min(max(0, count), width / 2)
        return Rect(row: row, column: column + inset, width: width - 2 * inset, height: height)
    }

    /// `"WxH@row,col"`, for test failure messages.
    package var description: String { "\(width)x\(height)@\(row),\(column)" }
}
