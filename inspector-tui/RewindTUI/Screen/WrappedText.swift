/// Text broken into lines of at most a given display width, at spaces where it can (mid-word only for a word
/// longer than a line), for the status rows: a long message is shown whole rather than cut at the screen's edge.
/// Pure functions: safe from any thread.
package enum WrappedText {
    /// `text` in lines of at most `width` columns (`DisplayWidth`); at most `limit` lines, the last one ending in
    /// `…` when text was left out. Empty text is one empty line.
    package static func lines(_ text: String, width: Int, limit: Int = .max) -> [String] {
        guard width > 0, limit > 0 else { return [] }
        // The usual case, asked on every layout: one line that fits.
        if !text.contains("\n"), DisplayWidth.of(text) <= width { return [text] }
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        var word = ""
        var wordWidth = 0

        func endLine() {
            lines.append(line)
            line = ""
            lineWidth = 0
        }
        func place(_ piece: String, _ pieceWidth: Int) {
            let gap = line.isEmpty ? 0 : 1
            if lineWidth + gap + pieceWidth > width && !line.isEmpty { endLine() }
            if !line.isEmpty {
                line.append(" ")
                lineWidth += 1
            }
            line += piece
            lineWidth += pieceWidth
        }
        func flushWord() {
            guard !word.isEmpty else { return }
            if wordWidth <= width {
                place(word, wordWidth)
            } else {
                // A word wider than a line: as much as fits on the current line, then whole lines of it.
                for character in word {
                    let characterWidth = DisplayWidth.of(character)
                    if lineWidth + characterWidth > width { endLine() }
                    line.append(character)
                    lineWidth += characterWidth
                }
            }
            word = ""
            wordWidth = 0
        }

        for character in text {
            if character == " " || character == "\n" {
                flushWord()
                if character == "\n" { endLine() }
            } else {
                word.append(character)
                wordWidth += DisplayWidth.of(character)
            }
        }
        flushWord()
        if !line.isEmpty || lines.isEmpty { endLine() }
        guard lines.count > limit else { return lines }
        var kept = Array(lines.prefix(limit))
        var last = kept[limit - 1]
        while DisplayWidth.of(last) + 1 > width, !last.isEmpty { last.removeLast() }
        kept[limit - 1] = last + "…"
        return kept
    }
}
