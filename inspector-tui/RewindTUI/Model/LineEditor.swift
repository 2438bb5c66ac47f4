/// A single-line text field with the usual terminal editing keys, for the `/` and `d` prompts.
///
/// Keys: printable characters insert; ←/→ move; Home/Ctrl-A and End/Ctrl-E jump; Backspace and Delete erase;
/// Ctrl-U erases to the start, Ctrl-K to the end, Ctrl-W the previous word. A plain value type.
package struct LineEditor: Sendable, Hashable {
    /// The characters of the line.
    package private(set) var characters: [Character]
    /// The insertion point, `0...characters.count`.
    package private(set) var cursor: Int

    /// A field holding `text`, with the cursor at its end.
    package init(_ text: String = "") {
        characters = Array(text)
        cursor = characters.count
    }

    /// The line as a string.
    package var text: String { String(characters) }

    /// Applies an editing key; returns false when the key is not an editing key (Enter, Esc, …).
    package mutating func handle(_ key: Key) -> Bool {
        switch key {
        case .character(let character):
            characters.insert(character, at: cursor)
            cursor += 1
        case .left:
            cursor = max(0, cursor - 1)
        case .right:
            cursor = min(characters.count, cursor + 1)
        case .home, .control("a"):
            cursor = 0
        case .end, .control("e"):
            cursor = characters.count
        case .backspace:
            guard cursor > 0 else { return true }
            characters.remove(at: cursor - 1)
            cursor -= 1
        case .delete, .control("d"):
            guard cursor < characters.count else { return true }
            characters.remove(at: cursor)
        case .control("u"):
            characters.removeSubrange(0..<cursor)
            cursor = 0
        case .control("k"):
            characters.removeSubrange(cursor...)
        case .control("w"):
            var start = cursor
            while start > 0 && characters[start - 1] == " " { start -= 1 }
            while start > 0 && characters[start - 1] != " " { start -= 1 }
            characters.removeSubrange(start..<cursor)
            cursor = start
        default:
            return false
        }
        return true
    }
}
