import Testing
import RewindTUI
import RewindWire

@Suite("State history (b B) and comparing two events (m)")
struct StateHistoryKeysTests {
    /// A controller on the todo fixture, at its last event (30), State tab, detail pane focused, on `/filter`.
    /// The fixture sets the filter at every third event, to "done" at even ones: it changes at 6, 9, …, 30.
    private func onFilterNode() throws -> TimelineController {
        var controller = TimelineController(dataSource: Fixtures.todoSource(), initialSession: "s-todo", clock: { 0 })
        controller.resize(width: 100, height: 30)
        controller.refresh()
        _ = controller.handle(.character("G"))
        _ = controller.handle(.character("3"))
        _ = controller.handle(.tab)
        #expect(controller.model.focus == .detail)
        let lines = controller.detailContent.content(for: controller.model, now: 0).lines
        let filter = try #require(lines.firstIndex { $0.path == "/filter" }, "\(lines.map(\.text))")
        for _ in 0..<filter { _ = controller.handle(.down) }
        return controller
    }

    @Test("b lists the events that changed the node, newest first, and b / B step older / newer on the same node")
    func stepThroughChanges() throws {
        var controller = try onFilterNode()
        #expect(controller.model.cursor == 30)
        _ = controller.handle(.character("b"))
        let changes = Array(stride(from: 30, through: 6, by: -3))
        #expect(controller.model.history?.events == changes)
        #expect(controller.model.cursor == 30, "event 30 set the value shown")
        #expect(controller.model.status?.text.hasPrefix("/filter changed by 9 events, newest first: [#30] #27 #24")
                == true, "\(controller.model.status?.text ?? "")")
        _ = controller.handle(.character("b"))
        #expect(controller.model.cursor == 27)
        let lines = controller.detailContent.content(for: controller.model, now: 0).lines
        #expect(lines[controller.model.detailCursor].path == "/filter", "the State tab stays on the node")
        #expect(controller.model.status?.text.contains("#30 [#27] #24") == true)
        _ = controller.handle(.character("B"))
        #expect(controller.model.cursor == 30)
        _ = controller.handle(.character("B"))
        #expect(controller.model.cursor == 30)
        #expect(controller.model.status?.text.hasPrefix("no newer change; ") == true)
        for _ in 0..<20 { _ = controller.handle(.character("b")) }
        #expect(controller.model.cursor == 6)
        #expect(controller.model.status?.text.hasPrefix("no older change; ") == true)
    }

    @Test("b asked at an event between changes selects the change that set the value shown there")
    func historyUpToTheSelectedEvent() throws {
        var controller = try onFilterNode()
        _ = controller.handle(.tab)  // back to the sessions pane …
        _ = controller.handle(.tab)  // … and the timeline
        for _ in 0..<5 { _ = controller.handle(.up) }  // event 25
        #expect(controller.model.cursor == 25)
        _ = controller.handle(.tab)
        let lines = controller.detailContent.content(for: controller.model, now: 0).lines
        let filter = try #require(lines.firstIndex { $0.path == "/filter" })
        while controller.model.detailCursor < filter { _ = controller.handle(.down) }
        while controller.model.detailCursor > filter { _ = controller.handle(.up) }
        _ = controller.handle(.character("b"))
        #expect(controller.model.history?.events.first == 24)
        #expect(controller.model.cursor == 24)
    }

    @Test("m marks an event; the Diff tab then shows the patch from its state to the selected event's; m again clears")
    func compareTwoEvents() throws {
        var controller = TimelineController(dataSource: Fixtures.todoSource(), initialSession: "s-todo", clock: { 0 })
        controller.resize(width: 100, height: 30)
        controller.refresh()
        _ = controller.handle(.character("G"))
        _ = controller.handle(.character("m"))
        #expect(controller.model.mark == 30)
        #expect(controller.model.status?.text.hasPrefix("marked #30") == true)
        for _ in 0..<6 { _ = controller.handle(.up) }  // event 24
        _ = controller.handle(.character("2"))
        let content = controller.detailContent.content(for: controller.model, now: 0)
        #expect(content.title == "#30 → #24")
        let text = content.lines.map(\.text)
        // From 30 back to 24: two todos fewer (ids 25 and 28), the count 10 → 8; the filter is "done" at both.
        #expect(text.first?.hasSuffix("#24: 3 operations") == true, "\(text)")
        #expect(text.contains("~ count: 10 → 8"), "\(text)")
        #expect(text.contains { $0.contains("- 9: ") && $0.contains("\"id\":28") }, "\(text)")
        #expect(!text.contains { $0.contains("filter") }, "\(text)")
        _ = controller.handle(.character("G"))
        _ = controller.handle(.character("m"))
        #expect(controller.model.mark == nil)
        #expect(controller.detailContent.content(for: controller.model, now: 0).title.hasPrefix("#30 "))
    }
}
