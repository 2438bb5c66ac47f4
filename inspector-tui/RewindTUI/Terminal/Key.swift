/// A key press, decoded from ncurses into something the controller can match on.
///
/// Plain value type; `Terminal` produces them on the UI thread, tests build them directly.
package enum Key: Sendable, Hashable, CustomStringConvertible {
    /// A printable character (letters, digits, punctuation, space, any Unicode text).
    case character(Character)
    /// Ctrl plus a letter, lowercase (`.control("c")` for Ctrl-C). Tab, Enter and Backspace have their own cases.
    case control(Character)
    /// Arrow up.
    case up
    /// Arrow down.
    case down
    /// Arrow left.
    case left
    /// Arrow right.
    case right
    /// Page Up.
    case pageUp
    /// Page Down.
    case pageDown
    /// Home.
    case home
    /// End.
    case end
    /// Enter or Return.
    case enter
    /// Tab.
    case tab
    /// Shift-Tab.
    case backTab
    /// Backspace (either DEL or ^H, whatever the terminal sends).
    case backspace
    /// Delete (forward).
    case delete
    /// Escape (alone, after the short escape delay).
    case escape
    /// Function key F1…F12.
    case function(Int)
    /// The terminal was resized: the next frame must be laid out for the new size.
    case resize
    /// A mouse click or wheel step (keys remain the primary way; the mouse is a shortcut).
    case mouse(MouseEvent)
    /// A key code ncurses reported that the timeline does not use.
    case unknown(Int32)

    /// Decodes a wide character delivered by `wget_wch` returning `OK`.
    package init(wideCharacter value: UInt32) {
        switch value {
        case 9: self = .tab
        case 10, 13: self = .enter
        case 27: self = .escape
        case 8, 127: self = .backspace
        case 1...26:
            self = .control(Character(Unicode.Scalar(UInt8(value) + 96)))
        case 0, 28...31: self = .unknown(Int32(value))
        default:
            if let scalar = Unicode.Scalar(value) {
                self = .character(Character(scalar))
            } else {
                self = .unknown(Int32(bitPattern: value))
            }
        }
    }

    /// Decodes a function-key code delivered by `wget_wch` returning `KEY_CODE_YES` (the `KEY_*` values of
    /// ncurses, which are the same on every platform ncurses supports).
    package init(keyCode: Int32) {
        switch keyCode {
        case 0o402: self = .down
        case 0o403: self = .up
        case 0o404: self = .left
        case 0o405: self = .right
        case 0o406: self = .home
        case 0o407: self = .backspace
        case 0o411...0o424: self = .function(Int(keyCode - 0o410))
        case 0o512: self = .delete
        case 0o522: self = .pageDown
        case 0o523: self = .pageUp
        case 0o527: self = .enter        // KEY_ENTER (keypad)
        case 0o541: self = .backTab
        case 0o550: self = .end
        case 0o552: self = .home         // KEY_FIND: what vt220-style Home (\e[1~) decodes to in some entries
        case 0o601: self = .end          // KEY_SELECT: likewise for End (\e[4~)
        case 0o632: self = .resize
        default: self = .unknown(keyCode)
        }
    }

    /// How the key is written in help texts and tests: `j`, `Ctrl-C`, `PgDn`, `↑`.
    package var description: String {
        switch self {
        case .character(" "): return "Space"
        case .character(let character): return String(character)
        case .control(let character): return "Ctrl-\(character.uppercased())"
        case .up: return "↑"
        case .down: return "↓"
        case .left: return "←"
        case .right: return "→"
        case .pageUp: return "PgUp"
        case .pageDown: return "PgDn"
        case .home: return "Home"
        case .end: return "End"
        case .enter: return "Enter"
        case .tab: return "Tab"
        case .backTab: return "Shift-Tab"
        case .backspace: return "Backspace"
        case .delete: return "Delete"
        case .escape: return "Esc"
        case .function(let number): return "F\(number)"
        case .resize: return "resize"
        case .mouse(let event): return "mouse \(event.kind) at \(event.row),\(event.column)"
        case .unknown(let code): return "key \(code)"
        }
    }
}
