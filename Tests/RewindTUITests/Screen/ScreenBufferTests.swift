import Testing
import RewindTUI

@Suite("Screen buffer")
struct ScreenBufferTests {
    @Test("a new buffer is blank and its lines have the full width")
    func blank() {
        let buffer = ScreenBuffer(width: 5, height: 2)
        #expect(buffer.lines == ["     ", "     "])
        #expect(buffer.text == "\n")
    }

    @Test("put writes text with its style and returns the columns used")
    func put() {
        var buffer = ScreenBuffer(width: 10, height: 1)
        let style = CellStyle(foreground: .green, bold: true)
        #expect(buffer.put("abc", row: 0, column: 2, style: style) == 3)
        #expect(buffer.lines[0] == "  abc     ")
        #expect(buffer[0, 2].style == style)
        #expect(buffer[0, 5].style == .plain)
    }

    @Test("text wider than the space ends with an ellipsis in the last column")
    func truncates() {
        var buffer = ScreenBuffer(width: 10, height: 1)
        #expect(buffer.put("abcdefgh", row: 0, column: 0, maxWidth: 5) == 5)
        #expect(buffer.lines[0] == "abcd…     ")
        var edge = ScreenBuffer(width: 6, height: 1)
        edge.put("abcdefgh", row: 0, column: 2)
        #expect(edge.lines[0] == "  abc…")
        var exact = ScreenBuffer(width: 5, height: 1)
        exact.put("abcde", row: 0, column: 0)
        #expect(exact.lines[0] == "abcde")
    }

    @Test("a wide character takes two cells and is never split by truncation")
    func wideCharacters() {
        var buffer = ScreenBuffer(width: 8, height: 1)
        #expect(buffer.put("中文", row: 0, column: 0) == 4)
        #expect(buffer[0, 0].width == 2)
        #expect(buffer[0, 1].isContinuation)
        #expect(buffer.lines[0] == "中文    ")
        var cut = ScreenBuffer(width: 8, height: 1)
        // 3 columns: "中" fits in 2, "文" would need columns 2–3: cut to a space-free "中…".
        #expect(cut.put("中文字", row: 0, column: 0, maxWidth: 3) == 3)
        #expect(cut.lines[0] == "中…     ")
        var odd = ScreenBuffer(width: 8, height: 1)
        // 4 columns: "中文" would fill them exactly but "字" follows, so the second one gives way to "…".
        odd.put("中文字", row: 0, column: 0, maxWidth: 4)
        #expect(odd.lines[0] == "中 …    ")
    }

    @Test("a wide character that does not fit at the right edge becomes an ellipsis")
    func wideAtEdge() {
        var buffer = ScreenBuffer(width: 5, height: 1)
        buffer.put("abcd中", row: 0, column: 0)
        #expect(buffer.lines[0] == "abcd…")
        #expect(buffer.lines.allSatisfy { DisplayWidth.of($0) == 5 })
    }

    @Test("overwriting half of a wide character blanks its other half")
    func overwriteHalf() {
        var buffer = ScreenBuffer(width: 6, height: 1)
        buffer.put("中文", row: 0, column: 0)
        buffer.put("x", row: 0, column: 1)  // the second half of 中
        #expect(buffer.lines[0] == " x文  ")
        buffer.put("y", row: 0, column: 2)  // the first half of 文
        #expect(buffer.lines[0] == " xy   ")
        #expect(DisplayWidth.of(buffer.lines[0]) == 6)
    }

    @Test("combining marks stay with their character and emoji align")
    func graphemes() {
        var buffer = ScreenBuffer(width: 8, height: 1)
        buffer.put("e\u{301}😀x", row: 0, column: 0)
        #expect(buffer[0, 0].character == "e\u{301}")
        #expect(buffer[0, 1].width == 2)
        #expect(buffer[0, 3].character == "x")
    }

    @Test("control characters from an app are shown as visible escapes, never sent to the terminal")
    func controlCharacters() {
        var buffer = ScreenBuffer(width: 23, height: 1)
        buffer.put("a\tb\nc\u{1B}[31m\u{07}\u{9B}", row: 0, column: 0)
        #expect(buffer.lines[0] == "a\\tb\\nc\\x1B[31m\\x07\\x9B")
        var right = ScreenBuffer(width: 8, height: 1)
        right.putRightAligned("\u{1B}]0;x", row: 0, end: 8)
        #expect(right.lines[0] == "\\x1B]0;x")
    }

    @Test("writes outside the screen are ignored")
    func outside() {
        var buffer = ScreenBuffer(width: 3, height: 1)
        #expect(buffer.put("x", row: 1, column: 0) == 0)
        #expect(buffer.put("x", row: 0, column: 3) == 0)
        #expect(buffer.put("x", row: -1, column: 0) == 0)
        #expect(buffer.lines == ["   "])
    }

    @Test("right-aligned text ends at the given column")
    func rightAligned() {
        var buffer = ScreenBuffer(width: 8, height: 1)
        buffer.putRightAligned("42", row: 0, end: 5)
        #expect(buffer.lines[0] == "   42   ")
    }

    @Test("restyle and fill change cells inside the rectangle only")
    func restyleAndFill() {
        var buffer = ScreenBuffer(width: 4, height: 2)
        buffer.put("abcd", row: 0, column: 0)
        buffer.restyle(Rect(row: 0, column: 1, width: 2, height: 5)) { $0.reverse = true }
        #expect(buffer[0, 0].style.reverse == false)
        #expect(buffer[0, 1].style.reverse && buffer[0, 2].style.reverse)
        #expect(buffer[1, 1].style.reverse)
        buffer.fill(Rect(row: 0, column: 3, width: 9, height: 1))
        #expect(buffer.lines[0] == "abc ")
    }

    @Test("spans are written one after another and cut together")
    func spans() {
        var buffer = ScreenBuffer(width: 10, height: 1)
        let used = buffer.put([TextSpan("ab", Theme.key), TextSpan("cdefgh")], row: 0, column: 1, width: 6)
        #expect(used == 6)
        #expect(buffer.lines[0] == " abcde…   ")
        #expect(buffer[0, 1].style == Theme.key)
    }
}
