import Testing
import RewindTUI
import RewindWire

/// Issue 31: a long status message is shown whole — wrapped onto up to three rows above the footer — instead of
/// being cut at the screen's edge, where the advice usually is.
@Suite("Long status messages wrap instead of being cut")
struct StatusWrapTests {
    @Test("words wrap at spaces within the width; a word wider than a line is broken; too many lines end in …")
    func wrapping() {
        #expect(WrappedText.lines("one two three", width: 7) == ["one two", "three"])
        #expect(WrappedText.lines("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
        #expect(WrappedText.lines("", width: 10) == [""])
        #expect(WrappedText.lines("a b c d e f", width: 3, limit: 2) == ["a b", "c …"])
        #expect(WrappedText.lines("日本語のテキスト", width: 6) == ["日本語", "のテキ", "スト"])
        for line in WrappedText.lines(String(repeating: "word ", count: 40), width: 33) {
            #expect(DisplayWidth.of(line) <= 33)
        }
    }

    @Test("the sessions pane's refusal keeps its 'rewind sessions --delete' advice on screen at 80 columns")
    func deletionAdviceShows() throws {
        let source = Fixtures.todoSource(status: .ended)
        let app = TimelineApp(dataSource: source, actions: RecordingActions(), environment: [:], clock: { 0 })
        app.handle(.backTab)
        #expect(app.model.focus == .sessions)
        app.handle(.character("x"))
        let message = try #require(app.model.status?.text)
        #expect(message.contains("rewind sessions --delete s-todo"))
        let lines = app.renderFrame(width: 80, height: 24).lines
        #expect(lines.count == 24)
        let shown = lines.suffix(4).joined(separator: " ").split(separator: " ").joined(separator: " ")
        #expect(shown.contains("'rewind sessions --delete s-todo'"), "\(lines.suffix(4))")
        #expect(lines[23].hasSuffix("? help  q quit "), "the footer stays on the last row")
    }

    @Test("the layout gives a wrapped message its rows from the panes, never more than three")
    func layoutRows() {
        let one = TimelineLayout(width: 80, height: 24, sessionCount: 2, statusLines: 1)
        let three = TimelineLayout(width: 80, height: 24, sessionCount: 2, statusLines: 3)
        let many = TimelineLayout(width: 80, height: 24, sessionCount: 2, statusLines: 9)
        #expect(one.status.height == 1 && three.status.height == 3 && many.status.height == 3)
        #expect(three.status.row == 20 && three.footer.row == 23)
        #expect(three.detail.bottom <= three.status.row)
    }
}
