import Testing
import RewindTUI
import RewindWire
import RewindTestSupport

@Suite("Timeline controller")
struct TimelineControllerTests {
    private func controller(count: Int = 30, status: TimelineSessionStatus = .live, connectedApps: Int = 1)
        -> (TimelineController, InMemoryTimelineDataSource) {
        let source = Fixtures.todoSource(count: count, status: status, connectedApps: connectedApps)
        var controller = TimelineController(dataSource: source, clock: { 0 })
        controller.resize(width: 80, height: 24)
        controller.refresh()
        return (controller, source)
    }

    @Test("a live session is selected first and followed: the cursor sits on the newest event")
    func followsLive() throws {
        var (controller, source) = controller()
        #expect(controller.model.selectedSessionID == "s-todo")
        #expect(controller.model.following)
        #expect(controller.model.cursor == 30)
        try source.append(session: "s-todo", time: Fixtures.start + 100, label: "todo/add")
        controller.refresh()
        #expect(controller.model.cursor == 31)
        #expect(controller.model.lastVisibleIndex == 31)
    }

    @Test("started with only saved sessions (make demo run again), the first session to go live is selected and followed — unless a key was pressed meanwhile",
          arguments: [false, true])
    func firstLiveSessionWhenNoneWasLive(keyPressed: Bool) throws {
        let source = Fixtures.todoSource(count: 5, status: .ended, connectedApps: 0)
        var controller = TimelineController(dataSource: source, clock: { 0 })
        controller.resize(width: 80, height: 24)
        controller.refresh()
        #expect(controller.model.selectedSessionID == "s-todo", "the saved session, for want of a live one")
        if keyPressed { _ = controller.handle(.down) }
        source.addSession(id: "s-live", appName: "todo", startedAt: Fixtures.start + 60)
        try source.append(session: "s-live", time: Fixtures.start + 61, label: "todo/add")
        controller.refresh()
        #expect(controller.model.selectedSessionID == (keyPressed ? "s-todo" : "s-live"))
        if !keyPressed {
            #expect(controller.model.following && controller.model.cursor == 1)
            // Once chosen, the selection stays: another live session does not take it.
            source.addSession(id: "s-other", appName: "login", startedAt: Fixtures.start + 70)
            controller.refresh()
            #expect(controller.model.selectedSessionID == "s-live")
        }
    }

    @Test("moving away stops following and counts new events below the screen; f resumes")
    func newIndicator() throws {
        var (controller, source) = controller(count: 100)
        _ = controller.handle(.character("g"))
        #expect(!controller.model.following)
        #expect(controller.model.cursor == 0)
        for _ in 0..<7 { try source.append(session: "s-todo", time: Fixtures.start + 100, label: "late") }
        controller.refresh()
        #expect(controller.model.cursor == 0)
        #expect(controller.model.unseenCount == 7)
        _ = controller.handle(.character("f"))
        controller.refresh()
        #expect(controller.model.following)
        #expect(controller.model.cursor == 107)
        #expect(controller.model.unseenCount == 0)
    }

    @Test("arrows and vi keys move one row, page keys a screen, g and G to the ends")
    func movement() {
        var (controller, _) = controller(count: 100)
        let page = controller.model.layout.timelineRows
        _ = controller.handle(.up)
        #expect(controller.model.cursor == 99)
        _ = controller.handle(.character("k"))
        #expect(controller.model.cursor == 98)
        _ = controller.handle(.character("j"))
        _ = controller.handle(.down)
        #expect(controller.model.cursor == 100)
        #expect(!controller.model.following)  // j onto the end does not resume following
        _ = controller.handle(.pageUp)
        #expect(controller.model.cursor == 100 - page)
        _ = controller.handle(.home)
        #expect(controller.model.cursor == 0 && controller.model.scrollTop == 0)
        _ = controller.handle(.pageDown)
        #expect(controller.model.cursor == page)
        _ = controller.handle(.control("d"))
        #expect(controller.model.cursor == page + page / 2)
        _ = controller.handle(.end)
        #expect(controller.model.cursor == 100 && controller.model.following)
        _ = controller.handle(.character("k"))
        _ = controller.handle(.character("G"))
        #expect(controller.model.following)
    }

    @Test("the cursor always stays within the visible rows")
    func scrolling() {
        var (controller, _) = controller(count: 200)
        let rows = controller.model.layout.timelineRows
        for key in [Key.home, .pageDown, .pageDown, .down, .up, .up, .pageUp, .end, .pageUp, .character("k")] {
            _ = controller.handle(key)
            let model = controller.model
            #expect(model.cursor >= model.scrollTop && model.cursor < model.scrollTop + rows, "\(key)")
        }
    }

    @Test("Tab cycles the panes; in the sessions pane the arrows select another session")
    func panesAndSessions() {
        var (controller, _) = controller()
        #expect(controller.model.focus == .timeline)
        _ = controller.handle(.tab)
        #expect(controller.model.focus == .detail)
        _ = controller.handle(.tab)
        #expect(controller.model.focus == .sessions)
        _ = controller.handle(.down)
        #expect(controller.model.selectedSessionID == "s-counter")
        // A saved session opens at the top, not following.
        #expect(!controller.model.following && controller.model.cursor == 0)
        _ = controller.handle(.enter)
        #expect(controller.model.focus == .timeline)
        _ = controller.handle(.backTab)
        #expect(controller.model.focus == .sessions)
        _ = controller.handle(.character("k"))
        #expect(controller.model.selectedSessionID == "s-todo")
    }

    @Test("Enter, s, r and e ask for jump, skip, replay and export of the selected event")
    func commands() {
        var (controller, _) = controller()
        _ = controller.handle(.up)
        #expect(controller.handle(.enter) == [.jump(session: "s-todo", index: 29)])
        #expect(controller.handle(.character("s")) == [.skip(session: "s-todo", index: 29)])
        #expect(controller.handle(.character("r")) == [.replay(session: "s-todo", from: 29)])
        #expect(controller.handle(.character("e")) == [.export(session: "s-todo")])
        _ = controller.handle(.home)
        #expect(controller.handle(.character("s")).isEmpty)
        #expect(controller.model.status?.isError == true)
        #expect(controller.handle(.enter) == [.jump(session: "s-todo", index: 0)])
        #expect(controller.handle(.control("l")) == [.redraw])
    }

    @Test("d opens a JSON prompt; bad JSON is refused in place, good JSON is dispatched and remembered")
    func dispatch() {
        var (controller, _) = controller()
        _ = controller.handle(.home)  // the initial state: the prompt starts from the nearest recorded action
        _ = controller.handle(.character("d"))
        guard case .prompt(let opened)? = controller.model.dialog else {
            Issue.record("d did not open the prompt")
            return
        }
        #expect(opened.editor.text.hasPrefix(#"{"type":"todo/add""#), "the app's real action shape: \(opened.editor.text)")
        _ = controller.handle(.control("u"))
        for character in "{\"type\":" { _ = controller.handle(.character(character)) }
        #expect(controller.handle(.enter).isEmpty)
        guard case .prompt(let refused)? = controller.model.dialog else {
            Issue.record("the prompt closed on bad JSON")
            return
        }
        #expect(refused.error?.hasPrefix("not valid JSON") == true)
        for character in "\"reset\"}" { _ = controller.handle(.character(character)) }
        let commands = controller.handle(.enter)
        #expect(commands == [.dispatch(session: "s-todo", action: ["type": "reset"])])
        #expect(controller.model.dialog == nil)
        _ = controller.handle(.character("d"))
        guard case .prompt(let reopened)? = controller.model.dialog else {
            Issue.record("d did not open the prompt")
            return
        }
        #expect(reopened.editor.text == #"{"type":"reset"}"#)
        _ = controller.handle(.escape)
        #expect(controller.model.dialog == nil)
    }

    @Test("/ filters by a regex on labels: the cursor goes to the next match, n and N move between matches")
    func filter() {
        let source = Fixtures.todoSource(count: 30)
        let app = TimelineApp(dataSource: source, actions: RecordingActions(), clock: { 0 })
        _ = app.renderFrame(width: 80, height: 24)
        func press(_ keys: [Key]) {
            for key in keys { app.handle(key) }
            #expect(app.waitForCommands(timeout: TestTime.seconds(10)), "the search finished")
        }
        press([.home, .character("/")] + "toggle".map(Key.character) + [.enter])
        #expect(app.model.filter?.pattern == "toggle")
        #expect(app.model.cursor == 2)
        press([.character("n")])
        #expect(app.model.cursor == 5)
        press([.character("N")])
        #expect(app.model.cursor == 2)
        press([.character("N")])  // wraps to the last match
        #expect(app.model.cursor == 29)
        #expect(app.model.status?.text == "search wrapped to the bottom")
        press([.character("n")])
        #expect(app.model.cursor == 2)
        press([.escape])
        #expect(app.model.filter == nil)
    }

    @Test("the filter ignores case unless the pattern has a capital letter, and refuses a bad regex")
    func filterCaseAndErrors() throws {
        #expect(try TimelineLabelFilter(pattern: "todo/ADD").matches("todo/add") == false)
        #expect(try TimelineLabelFilter(pattern: "TODO").matches("TODO/x"))
        #expect(try TimelineLabelFilter(pattern: "todo").matches("TODO/x"))
        #expect(try TimelineLabelFilter(pattern: "^filter/(set|reset)$").matches("filter/set"))
        var (controller, _) = controller()
        _ = controller.handle(.character("/"))
        _ = controller.handle(.character("("))
        _ = controller.handle(.enter)
        guard case .prompt(let prompt)? = controller.model.dialog else {
            Issue.record("the prompt closed on a bad regex")
            return
        }
        #expect(prompt.error == "not a valid regular expression: (")
    }

    @Test("a filter without matches says so and leaves the cursor")
    func filterNoMatch() {
        var (controller, _) = controller()
        _ = controller.handle(.character("k"))
        _ = controller.handle(.character("/"))
        for character in "nothing-like-this" { _ = controller.handle(.character(character)) }
        let commands = controller.handle(.enter)
        guard case .search(let request) = commands.first, commands.count == 1 else {
            Issue.record("Enter asked for \(commands), not one search")
            return
        }
        #expect(request.start == 29 && request.forward && request.count == 30 && !request.announceWrap)
        #expect(controller.model.search?.text == "searching /nothing-like-this/…")
        // What the search thread reports back.
        controller.finishSearch(request, found: nil, wrapped: false, cancelled: false, failure: nil)
        #expect(controller.model.cursor == 29)
        #expect(controller.model.search == nil)
        #expect(controller.model.status == StatusMessage("no event label matches /nothing-like-this/", isError: true))
    }

    @Test("q quits at once without connected apps, and asks first when apps are connected")
    func quit() {
        var (alone, _) = controller(connectedApps: 0)
        #expect(alone.handle(.character("q")) == [.quit])
        var (connected, _) = controller(connectedApps: 2)
        #expect(connected.handle(.character("q")).isEmpty)
        #expect(connected.model.dialog == .confirmQuit)
        #expect(connected.handle(.character("n")).isEmpty)
        #expect(connected.model.dialog == nil)
        _ = connected.handle(.control("c"))
        #expect(connected.handle(.character("y")) == [.quit])
    }

    @Test("? opens the help and any key closes it without acting")
    func help() {
        var (controller, _) = controller()
        _ = controller.handle(.character("?"))
        #expect(controller.model.dialog == .help)
        #expect(controller.handle(.character("q")).isEmpty)
        #expect(controller.model.dialog == nil)
    }

    @Test("t toggles the time format; [ ] and 1 2 3 switch the detail tab")
    func toggles() {
        var (controller, _) = controller()
        _ = controller.handle(.character("t"))
        #expect(controller.model.timeFormat == .absolute)
        _ = controller.handle(.character("]"))
        #expect(controller.model.detailTab == .diff)
        _ = controller.handle(.character("["))
        _ = controller.handle(.character("["))
        #expect(controller.model.detailTab == .state)
        _ = controller.handle(.character("1"))
        #expect(controller.model.detailTab == .action)
    }

    @Test("in the State tab, Enter and the arrows fold and unfold the node under the cursor")
    func foldState() {
        var (controller, _) = controller(count: 4)
        _ = controller.handle(.character("3"))
        _ = controller.handle(.tab)
        #expect(controller.model.focus == .detail)
        var lines = controller.detailContent.content(for: controller.model, now: 0).lines
        #expect(lines[0].text == "▾ todos [2] •")
        _ = controller.handle(.enter)
        #expect(controller.model.toggledPaths == ["/todos"])
        lines = controller.detailContent.content(for: controller.model, now: 0).lines
        #expect(lines[0].text.hasPrefix("▸ todos [{"))
        _ = controller.handle(.right)
        #expect(controller.model.toggledPaths.isEmpty)
        _ = controller.handle(.down)
        _ = controller.handle(.down)  // "id: 1" inside /todos/0
        _ = controller.handle(.left)  // moves to the parent
        #expect(controller.model.detailCursor == 1)
        _ = controller.handle(.left)  // collapses it
        #expect(controller.model.toggledPaths == ["/todos/0"])
    }
}
