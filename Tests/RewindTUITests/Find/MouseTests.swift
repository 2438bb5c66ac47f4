import Testing
import RewindTUI
import RewindWire

/// The mouse through the model: synthetic `Key.mouse` events (what `Terminal` makes of ncurses' `KEY_MOUSE` and
/// `getmouse`), at the cells the rendered frame shows.
@Suite("Mouse: click to select, wheel to scroll")
struct MouseTests {
    @Test("ncurses' button states decode to presses and wheel steps; other buttons are ignored")
    func decoding() {
        #expect(MouseEvent.decode(buttonState: 0o2, row: 3, column: 4) == MouseEvent(.press, row: 3, column: 4))
        #expect(MouseEvent.decode(buttonState: 0o4, row: 0, column: 0)?.kind == .press)
        #expect(MouseEvent.decode(buttonState: 0o2 << 15, row: 0, column: 0)?.kind == .wheelUp)
        #expect(MouseEvent.decode(buttonState: 0o2 << 20, row: 0, column: 0)?.kind == .wheelDown)
        #expect(MouseEvent.decode(buttonState: 0o2 << 5, row: 0, column: 0) == nil, "the middle button")
        #expect(MouseEvent.decode(buttonState: 0o1, row: 0, column: 0) == nil, "a release")
    }

    @Test("a click on a timeline row selects that event and focuses the timeline")
    func clickRow() throws {
        let app = TimelineApp(dataSource: Fixtures.todoSource(), actions: NoActions(), environment: [:], clock: { 0 })
        app.handle(.character("g"))
        app.handle(.tab)  // focus the detail pane first
        let lines = app.renderFrame(width: 80, height: 24).lines
        let row = try #require(lines.firstIndex { $0.hasPrefix("   5 ") })
        app.handle(.mouse(MouseEvent(.press, row: row, column: 20)))
        #expect(app.model.cursor == 5)
        #expect(app.model.focus == .timeline)
        #expect(!app.model.following)
        #expect(app.renderOnce(width: 80, height: 24).contains("#5 todo/toggle"), "the detail pane follows")
    }

    @Test("a click on a session selects it; the wheel over the timeline scrolls it")
    func clickSessionAndWheel() throws {
        let app = TimelineApp(dataSource: Fixtures.todoSource(count: 100), actions: NoActions(), environment: [:],
                              clock: { 0 })
        var lines = app.renderFrame(width: 80, height: 24).lines
        let counter = try #require(lines.firstIndex { $0.contains("counter") && $0.contains("ended") })
        app.handle(.mouse(MouseEvent(.press, row: counter, column: 10)))
        #expect(app.model.selectedSessionID == "s-counter")
        #expect(app.model.focus == .sessions)
        lines = app.renderFrame(width: 80, height: 24).lines
        let todo = try #require(lines.firstIndex { $0.contains("todo") && $0.contains("live") })
        app.handle(.mouse(MouseEvent(.press, row: todo, column: 10)))
        #expect(app.model.selectedSessionID == "s-todo")
        app.handle(.tab)  // to the timeline
        app.handle(.character("g"))
        let timelineRow = try #require(app.renderFrame(width: 80, height: 24).lines.firstIndex { $0.hasPrefix("   1 ") })
        app.handle(.mouse(MouseEvent(.wheelDown, row: timelineRow, column: 10)))
        app.handle(.mouse(MouseEvent(.wheelDown, row: timelineRow, column: 10)))
        #expect(app.model.cursor == 6)
        #expect(app.model.scrollTop == 6)
        app.handle(.mouse(MouseEvent(.wheelUp, row: timelineRow, column: 10)))
        #expect(app.model.cursor == 3 && app.model.scrollTop == 3)
    }

    @Test("a click on a detail tab selects it; on a detail line moves the detail cursor there")
    func clickDetail() throws {
        let app = TimelineApp(dataSource: Fixtures.todoSource(), actions: NoActions(), environment: [:], clock: { 0 })
        let lines = app.renderFrame(width: 80, height: 24).lines
        let tabs = try #require(lines.firstIndex { $0.hasPrefix(" 1 Action   2 Diff   3 State") })
        let stateColumn = try #require(lines[tabs].range(of: "3 State")).lowerBound.utf16Offset(in: lines[tabs])
        app.handle(.mouse(MouseEvent(.press, row: tabs, column: stateColumn)))
        #expect(app.model.detailTab == .state)
        #expect(app.model.focus == .detail)
        app.handle(.mouse(MouseEvent(.press, row: tabs + 3, column: 6)))
        #expect(app.model.detailCursor == 2, "the third line of the State tab")
        #expect(app.renderFrame(width: 80, height: 24)[tabs + 3, 6].style.reverse, "drawn as the cursor line")
    }

    @Test("while a prompt is open the mouse does nothing; a click closes the help")
    func dialogs() {
        let app = TimelineApp(dataSource: Fixtures.todoSource(), actions: NoActions(), environment: [:], clock: { 0 })
        app.handle(.character(":"))
        app.handle(.mouse(MouseEvent(.press, row: 6, column: 5)))
        #expect(app.model.cursor == 30)
        app.handle(.escape)
        app.handle(.character("?"))
        app.handle(.mouse(MouseEvent(.press, row: 6, column: 5)))
        #expect(app.model.dialog == nil)
    }
}
