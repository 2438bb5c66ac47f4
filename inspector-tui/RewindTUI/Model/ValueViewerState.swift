import RewindWire

/// The value viewer (Enter on a value of the State or Action tab, or `v`): the whole value, never cut — a string's
/// own text, anything else pretty-printed JSON — wrapped to the width of the overlay and scrolled by line.
/// A plain value type.
package struct ValueViewerState: Sendable, Hashable {
    /// The value's JSON Pointer in the event's state or action ("" for the whole).
    package let path: String
    /// The tab the value comes from (`.state` or `.action`).
    package let tab: DetailTab
    /// The text shown, piped to the pager and copied.
    package let text: String
    /// Whether the value is a string (`text` is its own text, not JSON).
    package let isString: Bool
    /// `text` cut into lines of at most `width` columns.
    package private(set) var lines: [String]
    /// The width `lines` were wrapped for.
    package private(set) var width: Int
    /// The first line shown.
    package var scroll = 0

    /// A viewer of `value`, wrapped to `width` columns.
    package init(path: String, tab: DetailTab, value: JSONValue, width: Int) {
        self.path = path
        self.tab = tab
        text = Self.text(of: value)
        if case .string = value { isString = true } else { isString = false }
        self.width = max(1, width)
        lines = Self.wrap(text, width: self.width)
    }

    /// Wraps the text again for another width (the terminal was resized).
    package mutating func rewrap(width: Int) {
        let width = max(1, width)
        guard width != self.width else { return }
        self.width = width
        lines = Self.wrap(text, width: width)
        scroll = min(scroll, max(0, lines.count - 1))
    }

    /// What the viewer shows of `value`: a string's text as it is, any other value as indented JSON.
    package static func text(of value: JSONValue) -> String {
        if case .string(let string) = value { return string }
        return value.prettyPrinted()
    }

    /// `text` cut at its line breaks, then to `width` columns — after the last space that fits when there is one
    /// in the line's second half, else at the width; a control character shows as `\u{…}` (never sent to the
    /// terminal), a tab as two spaces.
    package static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        let paragraphs = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for paragraph in paragraphs {
            var line: [(character: Character, width: Int)] = []
            var used = 0
            func add(_ character: Character, width characterWidth: Int) {
                if used + characterWidth > width && !line.isEmpty {
                    var cut = line.count
                    if let space = line.lastIndex(where: { $0.character == " " }), space >= line.count / 2 {
                        cut = space + 1
                    }
                    lines.append(String(line[..<cut].map(\.character)))
                    line.removeFirst(cut)
                    used = line.reduce(0) { $0 + $1.width }
                }
                line.append((character, characterWidth))
                used += characterWidth
            }
            for character in paragraph {
                if character == "\t" {
                    add(" ", width: 1)
                    add(" ", width: 1)
                } else if character == "\r" {
                    continue
                } else if let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1,
                          scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                    for escaped in "\\u{\(String(scalar.value, radix: 16))}" { add(escaped, width: 1) }
                } else {
                    add(character, width: DisplayWidth.of(character))
                }
            }
            lines.append(String(line.map(\.character)))
        }
        return lines
    }
}
