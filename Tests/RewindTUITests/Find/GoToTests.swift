import Foundation
import Testing
import RewindTUI
import RewindWire

@Suite("Go to an event, a time or a percentage (:)")
struct GoToTests {
    private func controller(count: Int = 30) -> TimelineController {
        var controller = TimelineController(dataSource: Fixtures.todoSource(count: count), clock: { 0 })
        controller.resize(width: 80, height: 24)
        controller.refresh()
        return controller
    }

    private func goTo(_ text: String, _ controller: inout TimelineController) {
        _ = controller.handle(.character(":"))
        for character in text { _ = controller.handle(.character(character)) }
        _ = controller.handle(.enter)
    }

    @Test("the prompt reads event numbers, times after the start, wall-clock times and percentages")
    func parsing() throws {
        #expect(try GoToTarget(parsing: "1234") == .event(1234))
        #expect(try GoToTarget(parsing: " #7 ") == .event(7))
        #expect(try GoToTarget(parsing: "+12.5s") == .relativeTime(12.5))
        #expect(try GoToTarget(parsing: "+90") == .relativeTime(90))
        #expect(try GoToTarget(parsing: "+250ms") == .relativeTime(0.25))
        #expect(try GoToTarget(parsing: "+1m30s") == .relativeTime(90))
        #expect(try GoToTarget(parsing: "+2h") == .relativeTime(7200))
        #expect(try GoToTarget(parsing: "14:03:12") == .clockTime(14 * 3600 + 3 * 60 + 12))
        #expect(try GoToTarget(parsing: "14:03") == .clockTime(14 * 3600 + 3 * 60))
        #expect(try GoToTarget(parsing: "09:00:01.5") == .clockTime(9 * 3600 + 1.5))
        #expect(try GoToTarget(parsing: "50%") == .percent(50))
        #expect(try GoToTarget(parsing: "12.5 %") == .percent(12.5))
        for bad in ["", "abc", "12x", "+", "+5q", "25:00", "14:60", "101%", "-3", "1m30", "١٢"] {
            #expect(throws: GoToTarget.Invalid.self, "\(bad)") { try GoToTarget(parsing: bad) }
        }
    }

    @Test("Enter moves the selection there, centred, and stops following; the status line says where it went")
    func goesThere() {
        var controller = controller()
        #expect(controller.model.following)
        goTo("12", &controller)
        #expect(controller.model.cursor == 12 && !controller.model.following)
        #expect(controller.model.dialog == nil)
        #expect(controller.model.status == StatusMessage("event 12"))
        // Events are 0.25 s apart from the start: +2.5s is event 10, +2.6s the first after it, event 11.
        goTo("+2.5s", &controller)
        #expect(controller.model.cursor == 10)
        goTo("+2.6s", &controller)
        #expect(controller.model.cursor == 11)
        goTo("+0s", &controller)
        #expect(controller.model.cursor == 0, "the start itself is the initial state")
        goTo("+1h", &controller)
        #expect(controller.model.cursor == 30, "after the last event: the last event")
        #expect(controller.model.status == StatusMessage(
            "event 30: the last event, at +7.500s: the session has nothing at or after +1:00:00"),
            "not 'the first event at or after +1:00:00', which would be false")
        goTo(String(Formatting.clockTime(Fixtures.start + 5).prefix(8)), &controller)
        #expect(controller.model.cursor == 20, "a wall-clock time on the session's day")
        goTo("50%", &controller)
        #expect(controller.model.cursor == 15)
        goTo("100%", &controller)
        #expect(controller.model.cursor == 30)
        goTo("0", &controller)
        #expect(controller.model.cursor == 0)
    }

    @Test("a go-to on a long session centres the target row")
    func centres() {
        var controller = controller(count: 3_000)
        goTo("1500", &controller)
        let model = controller.model
        let rows = model.layout.timelineRows
        #expect(model.cursor == 1_500)
        #expect(model.scrollTop == 1_500 - rows / 2)
    }

    @Test("a wrong or impossible target keeps the prompt open and says why")
    func refusals() {
        var controller = controller()
        goTo("31", &controller)
        guard case .prompt(let prompt)? = controller.model.dialog else {
            Issue.record("the prompt closed")
            return
        }
        #expect(prompt.kind == .goTo)
        #expect(prompt.error == "no event 31: the session has 30")
        _ = controller.handle(.control("u"))
        for character in "soon" { _ = controller.handle(.character(character)) }
        _ = controller.handle(.enter)
        guard case .prompt(let again)? = controller.model.dialog else {
            Issue.record("the prompt closed")
            return
        }
        #expect(again.error?.hasPrefix("not an event, time or percentage: 'soon'") == true)
        _ = controller.handle(.escape)
        #expect(controller.model.dialog == nil)
        #expect(controller.model.cursor == 30 && controller.model.following, "nothing moved")
    }

    @Test("the prompt and its footer render on the bottom rows")
    func renders() {
        let app = TimelineApp(dataSource: Fixtures.todoSource(), actions: NoActions(), environment: [:], clock: { 0 })
        app.handle(.character(":"))
        app.handle(.character("7"))
        let lines = app.renderFrame(width: 80, height: 24).lines
        #expect(lines[22].hasPrefix("go to (1234, +12.5s, 14:03:12, 50%): 7"))
        #expect(lines[23].hasPrefix(" Enter go  Esc cancel  ^U clear"))
    }

    @Test("a time on a 1,000,000-event session is found by binary search: a few dozen rows read")
    func binarySearchReadsLittle() {
        let source = SyntheticTimelineSource(count: 1_000_000)
        var controller = TimelineController(dataSource: source, initialSession: "big", clock: { 0 })
        controller.resize(width: 200, height: 60)
        controller.refresh()
        let before = source.rowsRead
        // Synthetic rows are 1 ms apart from the start: +612.3456s is between events 612,345 and 612,346.
        goTo("+612.3456s", &controller)
        #expect(controller.model.cursor == 612_346)
        #expect(source.rowsRead - before <= 21 * 8 + 16, "\(source.rowsRead - before) rows read")
    }
}
