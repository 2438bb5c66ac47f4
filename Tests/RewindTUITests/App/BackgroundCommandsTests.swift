import Testing
import RewindTUI
import RewindWire
import RewindTestSupport

@Suite("Commands run off the UI thread")
struct BackgroundCommandsTests {
    @Test("a jump waiting for the app shows its progress at once, and keys keep working meanwhile")
    func keysWorkWhileACommandRuns() {
        let actions = BlockingActions()
        defer { actions.release() }
        let app = TimelineApp(dataSource: Fixtures.todoSource(), actions: actions, environment: [:], clock: { 0 })
        app.handle(.enter)  // returns although the jump is blocked
        #expect(actions.waitUntilJumpStarted())
        var frame = app.renderOnce(width: 80, height: 24).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(frame[22].hasPrefix(" jumping to event 30…"))
        app.handle(.up)
        app.handle(.up)
        #expect(app.model.cursor == 28, "the cursor moved while the jump was running")
        app.handle(.enter)
        frame = app.renderOnce(width: 80, height: 24).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(frame[22].hasPrefix(" jumping to event 30… (1 more queued)"))
        #expect(actions.calls.isEmpty)
        actions.release()
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        #expect(actions.calls == ["jump 30", "jump 28"], "one at a time, in order")
        #expect(app.model.activity == nil)
        #expect(app.model.status == StatusMessage("jumped to 28"))
    }

    @Test("outcomes and errors reach the status line in the order the commands were given")
    func outcomesInOrder() {
        let actions = RecordingActions()
        let app = TimelineApp(dataSource: Fixtures.todoSource(), actions: actions, environment: [:], clock: { 0 })
        // (An export between the steps: jumps queued back to back would coalesce.)
        for key in [Key.character("<"), .character("e"), .character("<"), .character(">"), .character("e")] {
            app.handle(key)
        }
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        #expect(actions.calls.first == "jump s-todo 29")
        #expect(actions.calls.last == "export s-todo")
        #expect(actions.calls.dropFirst().first == "export s-todo")
        #expect(app.model.status == StatusMessage("done: export s-todo"))
        actions.failure = RecordingActions.Refused(description: "the app did not answer within 10 s")
        app.handle(.character("<"))
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        #expect(app.model.status == StatusMessage("the app did not answer within 10 s", isError: true))
    }

    @Test("quitting does not wait for a running command, and drops the ones not started")
    func quitDropsQueued() {
        let actions = BlockingActions()
        let app = TimelineApp(dataSource: Fixtures.todoSource(connectedApps: 0), actions: actions, environment: [:],
                              clock: { 0 })
        app.handle(.enter)
        #expect(actions.waitUntilJumpStarted())
        app.handle(.character("<"))
        #expect(app.handle(.character("q")))
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))  // the running jump, released by quit
        #expect(actions.calls.first == "quit")
        #expect(actions.calls.filter { $0.hasPrefix("jump") } == ["jump 30"], "the queued step was dropped")
    }
}

@Suite("Rendering the time-travel keys")
struct TimeTravelRenderTests {
    private func app(_ source: InMemoryTimelineDataSource = Fixtures.todoSource()) -> TimelineApp {
        TimelineApp(dataSource: source, actions: RecordingActions(), environment: [:], clock: { 0 })
    }

    @Test("while paused the header says so with the number of held events; resuming says how many arrived")
    func pausedHeader() throws {
        let source = Fixtures.todoSource()
        let app = app(source)
        app.handle(.character("p"))
        try source.append(session: "s-todo", time: Fixtures.start + 100, label: "todo/add")
        try source.append(session: "s-todo", time: Fixtures.start + 101, label: "todo/add")
        var lines = app.renderFrame(width: 80, height: 24).lines
        #expect(lines[0].hasPrefix(" rewind ws://127.0.0.1:7723 · 1 app · ● REC · ‖ PAUSED (2 held)"))
        #expect(lines[2].contains("30 ev  live"))
        app.handle(.character("p"))
        lines = app.renderFrame(width: 80, height: 24).lines
        #expect(!lines[0].contains("PAUSED"))
        #expect(lines[2].contains("32 ev  live"))
        #expect(lines[22].hasPrefix(" 2 events arrived while paused"))
    }

    @Test("the help and the timeline's footer show the step and pause keys")
    func helpAndFooter() {
        let app = app()
        let footer = app.renderFrame(width: 120, height: 30).lines[29]
        #expect(footer.contains("< > step") && footer.contains("p pause"))
        app.handle(.character("?"))
        let help = app.renderOnce(width: 80, height: 24)
        #expect(help.contains("< >  , .") && help.contains("step back/fwd + jump"))
        #expect(help.contains("pause / resume live"))
        #expect(help.contains("quit (asks if apps on)"), "still fits at 80×24")
    }

    @Test("a skipped action is marked ~ and dimmed")
    func skippedRow() {
        let source = Fixtures.todoSource()
        source.setSkipped(session: "s-todo", index: 28, skipped: true)
        let frame = app(source).renderFrame(width: 80, height: 24)
        let row = frame.lines.firstIndex { $0.hasPrefix("  28 ") }
        #expect(row != nil)
        if let row {
            #expect(frame.lines[row].hasPrefix("  28     +7.000s ~ todo/add"))
            #expect(frame[row, 20].style.dim)
        }
    }
}
