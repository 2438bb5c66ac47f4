/// Makes text that came from a peer or a file safe to print on a terminal or in a log: every control character
/// is shown as a visible escape instead of acting on the terminal (moving the cursor, changing colours or the
/// window title, ringing the bell, starting a new line that forges a log entry).
///
/// Escaped: C0 controls U+0000–U+001F (`\n`, `\r`, `\t` by name, the others as `\x1B`), DEL U+007F and the C1
/// controls U+0080–U+009F (`\x9B`, the one-byte CSI), the line and paragraph separators U+2028/U+2029 and the
/// bidirectional overrides and isolates U+202A–U+202E, U+2066–U+2069 (which reorder what follows them) as
/// `\u{202E}`. A backslash stays as it is. Everything else, printable Unicode included, is unchanged.
///
/// Every site that prints a peer's text (an app's name or instance, an action's label, a string of its state, a
/// note's detail) goes through ``escaped(_:)``: `rewind sessions`, `rewind tail`, the timeline, the daemon's log.
///
/// Threading: pure functions; safe from any thread.
public enum TerminalText {
    /// `text` with every control character replaced by a visible escape (see the type's description).
    /// Returns `text` itself when there is nothing to escape.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                if scalar.value <= 0xFF {
                    result += "\\x" + (hex.count < 2 ? "0" + hex : hex)
                } else {
                    result += "\\u{" + hex + "}"
                }
            }
        }
        return result
    }

    /// True when `scalar` is one ``escaped(_:)`` replaces.
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
