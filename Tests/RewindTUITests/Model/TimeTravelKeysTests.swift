import Testing
import RewindTUI
import RewindWire

@Suite("Time-travel keys: pause, step, dispatch an edited action")
struct TimeTravelKeysTests {
    private func controller(count: Int = 30) -> (TimelineController, InMemoryTimelineDataSource) {
        let source = Fixtures.todoSource(count: count)
        var controller = TimelineController(dataSource: source, clock: { 0 })
        controller.resize(width: 80, height: 24)
        controller.refresh()
        return (controller, source)
    }

    @Test("p holds new events back: the timeline and the sessions' counts stay, the held ones are counted")
    func pauseHolds() throws {
        var (controller, source) = controller()
        #expect(controller.handle(.character("p")).isEmpty)
        #expect(controller.model.paused)
        #expect(controller.model.status?.text.hasPrefix("paused") == true)
        for offset in 0..<5 {
            try source.append(session: "s-todo", time: Fixtures.start + 100 + Double(offset), label: "todo/add")
        }
        try source.append(session: "s-counter", time: Fixtures.start + 100, label: "increment")
        source.addSession(id: "s-new", appName: "login", startedAt: Fixtures.start + 50)
        try source.append(session: "s-new", time: Fixtures.start + 51, label: "login/start")
        controller.refresh()
        #expect(controller.model.eventCount == 30)
        #expect(controller.model.cursor == 30, "following stays on the last shown event")
        #expect(controller.model.sessions.map(\.eventCount) == [30, 0, 5], "live sessions first")
        #expect(controller.model.heldEvents == 7)
        _ = controller.handle(.up)
        #expect(controller.model.cursor == 29, "keys keep working while paused")
        _ = controller.handle(.character("f"))
        #expect(controller.model.cursor == 30, "f follows the shown end, not the held events")
    }

    @Test("p again lets the held events in and says how many arrived")
    func resumeCounts() throws {
        var (controller, source) = controller()
        _ = controller.handle(.character("p"))
        for offset in 0..<4 {
            try source.append(session: "s-todo", time: Fixtures.start + 100 + Double(offset), label: "todo/add")
        }
        controller.refresh()
        _ = controller.handle(.character("p"))
        #expect(!controller.model.paused)
        #expect(controller.model.status == StatusMessage("4 events arrived while paused"))
        #expect(controller.model.eventCount == 34)
        #expect(controller.model.cursor == 34, "following catches up")
        #expect(controller.model.heldEvents == 0)
        _ = controller.handle(.character("p"))
        try source.append(session: "s-todo", time: Fixtures.start + 200, label: "todo/add")
        _ = controller.handle(.character("p"))
        #expect(controller.model.status == StatusMessage("1 event arrived while paused"))
    }

    @Test("d on an action event prefills the prompt with its recorded action, compact")
    func dispatchPrefillsRecordedAction() throws {
        var (controller, source) = controller()
        _ = controller.handle(.up)  // event 29, todo/toggle
        _ = controller.handle(.character("d"))
        guard case .prompt(let prompt)? = controller.model.dialog else {
            Issue.record("d did not open the prompt")
            return
        }
        let recorded = try #require(try source.event(session: "s-todo", index: 29).action)
        #expect(prompt.editor.text == recorded.serialized())
        #expect(prompt.editor.text == #"{"type":"todo/toggle","payload":{"id":28}}"#)
        // An edited copy is what gets dispatched.
        for _ in 0..<4 { _ = controller.handle(.backspace) }
        for character in "5}}" { _ = controller.handle(.character(character)) }
        #expect(controller.handle(.enter) == [
            .dispatch(session: "s-todo", action: ["type": "todo/toggle", "payload": ["id": 5]]),
        ])
    }

    @Test("d elsewhere than on an action keeps the last dispatched text")
    func dispatchElsewhereKeepsLast() throws {
        var (controller, source) = controller()
        _ = controller.handle(.character("d"))
        _ = controller.handle(.control("u"))
        for character in #"{"type":"reset"}"# { _ = controller.handle(.character(character)) }
        _ = controller.handle(.enter)
        _ = controller.handle(.home)  // the initial state
        _ = controller.handle(.character("d"))
        guard case .prompt(let atStart)? = controller.model.dialog else {
            Issue.record("d did not open the prompt")
            return
        }
        #expect(atStart.editor.text == #"{"type":"reset"}"#)
        _ = controller.handle(.escape)
        try source.append(session: "s-todo", time: Fixtures.start + 100, kind: .jump, detail: "jumped")
        controller.refresh()
        _ = controller.handle(.character("G"))  // a jump row: not an action
        _ = controller.handle(.character("d"))
        guard case .prompt(let onJump)? = controller.model.dialog else {
            Issue.record("d did not open the prompt")
            return
        }
        #expect(onJump.editor.text == #"{"type":"reset"}"#)
    }

    @Test("d before any dispatch, off an action, offers the nearest recorded action; an empty prompt shows its shape")
    func dispatchShowsTheRealShape() throws {
        var (controller, _) = controller()
        _ = controller.handle(.home)  // the initial state: no action of its own
        _ = controller.handle(.character("d"))
        guard case .prompt(let prompt)? = controller.model.dialog else {
            Issue.record("d did not open the prompt")
            return
        }
        #expect(prompt.editor.text == #"{"type":"todo/add","payload":{"title":"item 1"}}"#, "event 1's action")
        _ = controller.handle(.control("u"))
        _ = controller.handle(.enter)
        guard case .prompt(let refused)? = controller.model.dialog else {
            Issue.record("an empty prompt closed")
            return
        }
        // Not the {"type":"increment"} it suggested, which no Rewind app accepts.
        #expect(refused.error == #"type an action as JSON, shaped as this app records them, e.g. {"type":"todo/add","payload":{"title":"item 1"}}"#)
    }

    @Test("< and > move one event and jump the app there in one press; , and . do the same")
    func stepKeys() {
        var (controller, _) = controller()
        #expect(controller.handle(.character("<")) == [.jump(session: "s-todo", index: 29)])
        #expect(controller.model.cursor == 29)
        #expect(!controller.model.following)
        #expect(controller.handle(.character(",")) == [.jump(session: "s-todo", index: 28)])
        #expect(controller.handle(.character(">")) == [.jump(session: "s-todo", index: 29)])
        #expect(controller.handle(.character(".")) == [.jump(session: "s-todo", index: 30)])
        #expect(controller.model.cursor == 30)
        #expect(controller.handle(.character(">")).isEmpty, "nothing after the newest event")
        #expect(controller.model.status == StatusMessage("already at the newest event", isError: true))
        _ = controller.handle(.home)
        #expect(controller.handle(.character("<")).isEmpty)
        #expect(controller.model.status == StatusMessage("already at the initial state", isError: true))
        #expect(controller.handle(.character(">")) == [.jump(session: "s-todo", index: 1)])
    }

    @Test("stepping works from any pane and keeps the cursor on screen")
    func stepFromOtherPanes() {
        var (controller, _) = controller(count: 200)
        _ = controller.handle(.tab)
        #expect(controller.model.focus == .detail)
        _ = controller.handle(.home)  // moves in the detail pane, not the timeline
        var expected = 200
        for _ in 0..<40 {
            expected -= 1
            #expect(controller.handle(.character("<")) == [.jump(session: "s-todo", index: expected)])
            let model = controller.model
            #expect(model.cursor >= model.scrollTop && model.cursor < model.scrollTop + model.layout.timelineRows)
        }
        #expect(controller.model.cursor == 160)
    }

    @Test("each running command says what it does; the activity survives keys until it is cleared")
    func activity() {
        var (controller, _) = controller()
        #expect(TimelineCommand.jump(session: "s", index: 12).progressDescription == "jumping to event 12…")
        #expect(TimelineCommand.replay(session: "s", from: 3).progressDescription == "replaying from event 3…")
        #expect(TimelineCommand.dispatch(session: "s", action: ["type": "x"]).progressDescription
            == #"dispatching {"type":"x"}…"#)
        #expect(TimelineCommand.quit.progressDescription == nil)
        controller.showActivity(StatusMessage("jumping to event 12…"))
        _ = controller.handle(.up)
        #expect(controller.model.activity?.text == "jumping to event 12…")
        #expect(controller.model.layout.status.height == 1, "the status line is shown")
        controller.showActivity(nil)
        #expect(controller.model.layout.status.height == 0)
    }
}
