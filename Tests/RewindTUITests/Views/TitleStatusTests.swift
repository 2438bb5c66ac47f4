import Foundation
import Testing
import RewindTUI
import RewindWire
import RewindTestSupport

/// Issue 31: the timeline's title always says what the rows are (filtered, paused), and the keys and messages say
/// what really happens.
@Suite("The timeline's title: the filter always shows, pause shows, f says where it went")
struct TitleStatusTests {
    private func app(status: TimelineSessionStatus = .live) -> TimelineApp {
        TimelineApp(dataSource: Fixtures.todoSource(status: status), actions: RecordingActions(), environment: [:],
                    clock: { 0 })
    }

    private func titleLine(_ app: TimelineApp, width: Int, height: Int) -> String? {
        app.renderFrame(width: width, height: height).lines.first { $0.hasPrefix(" s-todo") || $0.hasPrefix(" s-to…") }
    }

    @Test("a long regex filter (/… Tab) stays in the title at 80, 120 and 200 columns, cutting the session id first",
          arguments: [80, 120, 200])
    func longFilterStaysVisible(width: Int) throws {
        let app = app()
        let pattern = "navigation|todo/add|todo/toggle|filter/set|settings/open"
        for key in [Key.character("/")] + pattern.map(Key.character) + [.tab] { app.handle(key) }
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        let title = try #require(titleLine(app, width: width, height: 40))
        #expect(title.contains("only /navigation|todo/add"), "\(title)")
        app.handle(.down)
        let after = try #require(titleLine(app, width: width, height: 40))
        #expect(after.contains("only /navigation|todo/add"), "after the next key: \(after)")
    }

    @Test("a search filter (/ Enter) stays in the title too")
    func searchStaysVisible() throws {
        let app = app()
        let pattern = "navigation|todo/add|todo/toggle|filter/set|settings/open|profile/edit"
        for key in [Key.character("/")] + pattern.map(Key.character) + [.enter] { app.handle(key) }
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        let title = try #require(titleLine(app, width: 80, height: 24))
        #expect(title.contains("/navigation|todo/add"), "\(title)")
    }

    @Test("paused, the title says paused (not following) and the footer offers p resume")
    func pausedTitleAndFooter() throws {
        let app = app()
        app.handle(.character("p"))
        let lines = app.renderFrame(width: 120, height: 30).lines
        let title = try #require(lines.first { $0.hasPrefix(" s-todo") })
        #expect(title.contains("‖ paused") && !title.contains("following"), "\(title)")
        #expect(lines.last?.contains("p resume") == true, "\(lines.last ?? "")")
        app.handle(.character("p"))
        let resumed = app.renderFrame(width: 120, height: 30).lines
        #expect(resumed.first { $0.hasPrefix(" s-todo") }?.contains("● following") == true)
        #expect(resumed.last?.contains("p pause") == true)
    }

    @Test("the Action tab gives the event's date with its clock time (the time column has no date)")
    func actionTabHasTheDate() {
        let text = app().renderOnce(width: 200, height: 60)
        #expect(text.range(of: #"time \d{4}-\d\d-\d\d \d\d:\d\d:\d\d"#, options: .regularExpression) != nil, "\(text)")
    }

    @Test("f on an ended session says it is at the last event, not that it follows live events")
    func followOnEndedSession() {
        let ended = app(status: .ended)
        ended.handle(.character("f"))
        #expect(ended.model.status?.text == "at the last event: this session has ended, nothing more will arrive")
        let live = app()
        live.handle(.character("f"))
        #expect(live.model.status?.text == "following live events")
    }
}
