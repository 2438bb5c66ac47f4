import Testing
import RewindTUI
import RewindWire
import RewindTestSupport

@Suite("Repeated < and > presses coalesce")
struct CoalescedJumpsTests {
    @Test("20 presses of < while a jump runs send one more jump, to the last target, not 20")
    func burstOfSteps() {
        let actions = BlockingActions()
        defer { actions.release() }
        let app = TimelineApp(dataSource: Fixtures.todoSource(), actions: actions, environment: [:], clock: { 0 })
        app.handle(.enter)
        #expect(actions.waitUntilJumpStarted())
        for _ in 0..<20 { app.handle(.character("<")) }
        #expect(app.model.cursor == 10, "the cursor moved at every press")
        let frame = app.renderFrame(width: 80, height: 24).lines
        #expect(frame[22].hasPrefix(" jumping to event 30… (1 more queued)"), "\(frame[22])")
        actions.release()
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        #expect(actions.calls == ["jump 30", "jump 10"])
        #expect(app.model.activity == nil)
        #expect(app.model.status == StatusMessage("jumped to 10"))
    }

    @Test("a queued jump is not replaced across another command: skip, export and dispatch keep their order")
    func onlyAdjacentJumpsCoalesce() {
        let actions = BlockingActions()
        defer { actions.release() }
        let app = TimelineApp(dataSource: Fixtures.todoSource(), actions: actions, environment: [:], clock: { 0 })
        app.handle(.enter)
        #expect(actions.waitUntilJumpStarted())
        app.handle(.character("<"))  // jump 29, queued
        app.handle(.character("e"))  // export, queued behind it
        app.handle(.character("<"))  // jump 28: the export stands between, so 29 stays
        app.handle(.character("<"))  // jump 27 replaces 28
        actions.release()
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        #expect(actions.calls == ["jump 30", "jump 29", "export", "jump 27"])
    }
}
