import Testing
import RewindTUI
import RewindWire

@Suite("The sessions pane: live first, the id in view, more indicators")
struct SessionsPaneTests {
    /// Ten sessions, listed by the source newest first: two live ones among ended ones.
    private func source() -> InMemoryTimelineDataSource {
        let source = InMemoryTimelineDataSource(header: TimelineHeader(connectedApps: 2, isRecording: true))
        for number in 0..<10 {
            let live = number == 4 || number == 7
            source.addSession(id: "s-\(number)", appName: "app\(number)", startedAt: Fixtures.start - Double(number) * 60,
                              status: live ? .live : .ended)
        }
        return source
    }

    @Test("live sessions are listed first and the first of them is selected")
    func liveFirst() {
        var controller = TimelineController(dataSource: source(), clock: { 0 })
        controller.resize(width: 80, height: 24)
        controller.refresh()
        #expect(controller.model.sessions.map(\.id) == ["s-4", "s-7", "s-0", "s-1", "s-2", "s-3", "s-5", "s-6", "s-8", "s-9"])
        #expect(controller.model.selectedSessionID == "s-4")
    }

    @Test("the timeline's title names the session id, which every command takes")
    func idInTitle() {
        let app = TimelineApp(dataSource: Fixtures.todoSource(), actions: NoActions(), environment: [:], clock: { 0 })
        let lines = app.renderFrame(width: 80, height: 24).lines
        #expect(lines[4].hasPrefix(" s-todo 30 events"), "\(lines[4])")
    }

    @Test("when the list scrolls, the title says how many sessions are hidden above and below")
    func moreIndicator() {
        let app = TimelineApp(dataSource: source(), actions: NoActions(), environment: [:], clock: { 0 })
        // 80×24: the pane shows 3 sessions.
        var title = app.renderFrame(width: 80, height: 24).lines[1]
        #expect(title.hasPrefix(" Sessions 10") && title.contains("▼ 7 more") && !title.contains("▲"), "\(title)")
        app.handle(.backTab)  // to the sessions pane
        for _ in 0..<5 { app.handle(.down) }
        title = app.renderFrame(width: 80, height: 24).lines[1]
        #expect(title.contains("▲ 3 ▼ 4 more"), "\(title)")
        app.handle(.end)
        title = app.renderFrame(width: 80, height: 24).lines[1]
        #expect(title.contains("▲ 7 more") && !title.contains("▼"), "\(title)")
        #expect(title.contains("2 live"))
    }
}
