import Testing
import RewindSessionFile
import RewindTUI
import RewindWire
import RewindTestSupport

@Suite("The footer offers only the keys that can work")
struct OfferOnlyWhatWorksTests {
    private func footer(_ app: TimelineApp) -> String {
        app.renderFrame(width: 160, height: 30).lines[29]
    }

    @Test("a live session whose app is connected: jump, step, skip, replay and dispatch are offered")
    func connectedApp() {
        let app = TimelineApp(dataSource: Fixtures.todoSource(), actions: RecordingActions(), environment: [:],
                              clock: { 0 })
        app.handle(.up)
        let keys = footer(app)
        for hint in ["Enter jump", "< > step", "s skip", "r replay", "d dispatch", "p pause", ": go to", "f follow"] {
            #expect(keys.contains(hint), "\(hint): \(keys)")
        }
    }

    @Test("a saved session: none of the keys that need the app, and pressing them says why without sending anything")
    func savedSession() {
        let actions = RecordingActions()
        let app = TimelineApp(dataSource: Fixtures.todoSource(status: .ended, connectedApps: 0), actions: actions,
                              environment: [:], clock: { 0 })
        app.handle(.character(":"))
        for character in "29" { app.handle(.character(character)) }
        app.handle(.enter)
        let keys = footer(app)
        for hint in ["Enter jump", "< > step", "s skip", "r replay", "d dispatch", "p pause", "f follow"] {
            #expect(!keys.contains(hint), "\(hint): \(keys)")
        }
        #expect(keys.contains(": go to") && keys.contains("e export"))
        for key in [Key.enter, .character("<"), .character(">"), .character("s"), .character("r"), .character("d")] {
            app.handle(key)
            #expect(app.model.status == StatusMessage(
                "session s-todo has ended: no app is connected to jump, step, skip, replay or dispatch", isError: true),
                "\(key)")
            #expect(app.model.dialog == nil)
        }
        #expect(app.model.cursor == 29, "nothing moved")
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        #expect(actions.calls.isEmpty)
    }

    @Test("rewind open on a session another daemon records: rows stream in, but it never says 'no app is connected'")
    func liveInAnotherDaemon() throws {
        let source = InMemoryTimelineDataSource(header: TimelineHeader(caption: "session s-live"))
        source.addSession(id: "s-live", appName: "todo", startedAt: Fixtures.start, status: .live,
                          initialState: ["n": 0], appConnected: false)
        for index in 1...3 {
            try source.append(session: "s-live", time: Fixtures.start + Double(index), label: "tick")
        }
        let actions = RecordingActions()
        let app = TimelineApp(dataSource: source, actions: actions, initialSession: "s-live", environment: [:],
                              clock: { 0 })
        #expect(!footer(app).contains("Enter jump"))
        try source.append(session: "s-live", time: Fixtures.start + 4, label: "tick")
        #expect(app.renderOnce(width: 160, height: 30).contains("4 events"), "the new row streams in")
        app.handle(.enter)
        let status = try #require(app.model.status)
        #expect(status.text.hasPrefix("this timeline only reads session s-live: its app is connected to another rewind"))
        #expect(!status.text.contains("no app is connected"))
        #expect(actions.calls.isEmpty)
    }

    @Test("on a recomputed branch row: no skip and no replay; on an unknown state: no jump; on row 0: no skip")
    func rowContext() throws {
        let source = Fixtures.todoSource(count: 3)
        // 4–5: a skip's recomputed branch; 6: an app's dropped row; 7: an action whose state is unknown.
        try source.append(session: "s-todo", time: Fixtures.start + 10, kind: .note, label: "recomputed", branch: 1,
                          stateAfter: ["todos": [], "filter": "all", "count": 0])
        try source.append(session: "s-todo", time: Fixtures.start + 10, label: "todo/toggle",
                          detail: "recomputes event 2", branch: 1, meaning: RowMeaning(recomputes: 2))
        try source.append(session: "s-todo", time: Fixtures.start + 11, kind: .dropped, label: "dropped",
                          detail: "the app's outbox was full")
        try source.append(session: "s-todo", time: Fixtures.start + 12, label: "todo/add",
                          meaning: .unknown(.dropped, cause: 6))
        let app = TimelineApp(dataSource: source, actions: RecordingActions(), environment: [:], clock: { 0 })
        app.handle(.character("g"))
        var keys = footer(app)
        #expect(keys.contains("Enter jump") && keys.contains("r replay") && !keys.contains("s skip"), "row 0: \(keys)")
        app.handle(.down)
        keys = footer(app)
        #expect(keys.contains("s skip") && keys.contains("r replay"), "row 1: \(keys)")
        for _ in 0..<4 { app.handle(.down) }
        #expect(app.model.cursor == 5)
        keys = footer(app)
        #expect(keys.contains("Enter jump") && !keys.contains("s skip") && !keys.contains("r replay"),
                "branch row: \(keys)")
        app.handle(.end)
        #expect(app.model.cursor == 7)
        keys = footer(app)
        #expect(!keys.contains("Enter jump") && keys.contains("< > step"), "unknown state: \(keys)")
    }
}
