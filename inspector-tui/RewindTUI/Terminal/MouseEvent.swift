import CNCurses

/// A mouse event the timeline acts on: a left-button press (select what is under it) or a wheel step (scroll the
/// pane under it), at a screen cell (0-based). Plain value type; `Terminal` decodes them from ncurses' `MEVENT`,
/// tests build them directly.
package struct MouseEvent: Sendable, Hashable {
    /// What the mouse did.
    package enum Kind: Sendable, Hashable {
        /// The left button went down (or clicked).
        case press
        /// The wheel turned up (away from the user).
        case wheelUp
        /// The wheel turned down.
        case wheelDown
    }

    /// What the mouse did.
    package var kind: Kind
    /// The screen row, from 0 at the top.
    package var row: Int
    /// The screen column, from 0 at the left.
    package var column: Int

    /// Creates an event.
    package init(_ kind: Kind, row: Int, column: Int) {
        self.kind = kind
        self.row = row
        self.column = column
    }

    /// Bits per button in ncurses' event masks (`NCURSES_MOUSE_MASK`: 5 in mouse version 2, 6 before).
    private static let bitsPerButton: UInt = NCURSES_MOUSE_VERSION > 1 ? 5 : 6

    /// `NCURSES_MOUSE_MASK(button, bits)`, which Swift cannot import (a function-like macro).
    static func mask(button: UInt, _ bits: UInt) -> UInt { bits << ((button - 1) * bitsPerButton) }

    /// The events the timeline asks ncurses for (`mousemask`): button 1 pressed or clicked, buttons 4 and 5 (the
    /// wheel) pressed.
    static var wanted: UInt {
        mask(button: 1, 0o2) | mask(button: 1, 0o4) | mask(button: 4, 0o2) | mask(button: 5, 0o2)
    }

    /// Decodes ncurses' `bstate` at (`row`, `column`); nil for events the timeline does not use.
    package static func decode(buttonState: UInt, row: Int, column: Int) -> MouseEvent? {
        if buttonState & (mask(button: 1, 0o2) | mask(button: 1, 0o4)) != 0 {
            return MouseEvent(.press, row: row, column: column)
        }
        if buttonState & mask(button: 4, 0o2) != 0 { return MouseEvent(.wheelUp, row: row, column: column) }
        if buttonState & mask(button: 5, 0o2) != 0 { return MouseEvent(.wheelDown, row: row, column: column) }
        return nil
    }
}
