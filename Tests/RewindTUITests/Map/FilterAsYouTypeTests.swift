import Foundation
import RewindTUI
import RewindWire
import Testing
import RewindTestSupport

/// Issue 33's filter as you type: at the `/` prompt the list narrows to the matching rows a moment after the last
/// key (computed off the UI thread), Esc gives the view back, Enter keeps it, and the title always says what is shown.
@Suite("Filter as you type at the / prompt")
struct FilterAsYouTypeTests {
    private func app(_ clock: ManualClock) -> TimelineApp {
        TimelineApp(dataSource: Fixtures.todoSource(count: 60, status: .ended), actions: RecordingActions(),
                    initialSession: "s-todo", environment: [:], clock: { clock.now })
    }

    private func type(_ text: String, into app: TimelineApp) {
        for character in text { app.handle(.character(character)) }
    }

    /// The labels of the rows on screen (the timeline pane of a 120×40 frame).
    private func labels(_ app: TimelineApp) -> [String] {
        let buffer = app.renderFrame(width: 120, height: 40)
        let body = app.model.layout.timeline.droppingTop(2)
        return (body.row..<body.bottom).compactMap { row in
            let line = String(buffer.lines[row].prefix(body.right))
            return ["todo/add", "todo/toggle", "filter/set", "initial state"].first { line.contains($0) }
        }
    }

    private func title(_ app: TimelineApp) -> String {
        app.renderFrame(width: 120, height: 40).lines.first { $0.hasPrefix(" s-todo") } ?? ""
    }

    @Test("typing narrows the list after the debounce, with the prompt still open; the title says so")
    func narrowsWhileTyping() {
        let clock = ManualClock()
        let app = app(clock)
        app.handle(.character("/"))
        type("toggle", into: app)
        #expect(app.model.hiding == nil, "not before the debounce")
        clock.now = FilterPreview.debounce + 0.01
        _ = app.renderFrame(width: 120, height: 40)
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        let shown = labels(app)
        #expect(shown.count > 5 && shown.dropFirst().allSatisfy { $0 == "todo/toggle" }, "\(shown)")
        guard case .prompt = app.model.dialog else {
            Issue.record("the prompt stays open")
            return
        }
        #expect(title(app).contains("only /toggle/"), "\(title(app))")
        // Typing on narrows again: nothing matches `togglex`.
        type("x", into: app)
        clock.now += 1
        _ = app.renderFrame(width: 120, height: 40)
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        #expect(labels(app) == ["initial state"], "\(labels(app))")
        // Backspace widens it back.
        app.handle(.backspace)
        clock.now += 1
        _ = app.renderFrame(width: 120, height: 40)
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        #expect(labels(app).dropFirst().allSatisfy { $0 == "todo/toggle" } && labels(app).count > 5)
    }

    @Test("Esc gives back the view the prompt opened on: every row, the cursor where it was")
    func escapeRestores() {
        let clock = ManualClock()
        let app = app(clock)
        _ = app.renderFrame(width: 120, height: 40)
        for _ in 0..<7 { app.handle(.down) }
        let cursor = app.model.cursor
        app.handle(.character("/"))
        type("add", into: app)
        clock.now = 1
        _ = app.renderFrame(width: 120, height: 40)
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        #expect(app.model.hiding?.labels?.pattern == "add")
        app.handle(.escape)
        #expect(app.model.dialog == nil && app.model.hiding == nil && app.model.filter == nil)
        #expect(app.model.cursor == cursor)
        #expect(Set(labels(app)).count == 4, "every kind of row again: \(labels(app))")
    }

    @Test("Enter keeps the narrowed list, highlights it, and n N walk it; Esc then shows every row")
    func enterKeeps() {
        let clock = ManualClock()
        let app = app(clock)
        app.handle(.character("/"))
        type("filter/set", into: app)
        clock.now = 1
        _ = app.renderFrame(width: 120, height: 40)
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        app.handle(.enter)
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        #expect(app.model.dialog == nil)
        #expect(app.model.hiding?.labels?.pattern == "filter/set" && app.model.filter?.pattern == "filter/set")
        #expect(labels(app).dropFirst().allSatisfy { $0 == "filter/set" })
        #expect(title(app).contains("only /filter/set/"), "\(title(app))")
        let before = app.model.cursor
        app.handle(.character("n"))
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        #expect(app.model.cursor == before + 3, "the next filter/set row")
        app.handle(.escape)
        #expect(app.model.hiding == nil && Set(labels(app)).count == 4)
    }

    @Test("Enter before the debounce narrows too; a regex still being typed keeps the last preview")
    func enterAtOnceAndHalfTypedRegex() {
        let clock = ManualClock()
        let app = app(clock)
        app.handle(.character("/"))
        type("todo/(add", into: app)  // invalid until closed
        clock.now = 1
        _ = app.renderFrame(width: 120, height: 40)
        #expect(app.model.hiding == nil, "nothing to preview yet")
        guard case .prompt(let prompt) = app.model.dialog else {
            Issue.record("the prompt stays open")
            return
        }
        #expect(prompt.error == nil, "no error while typing")
        type(")", into: app)
        app.handle(.enter)
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        #expect(app.model.hiding?.labels?.pattern == "todo/(add)")
        _ = app.renderFrame(width: 120, height: 40)
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        #expect(labels(app).dropFirst().allSatisfy { $0 == "todo/add" })
    }

    @Test("an action search (a:) previews nothing: the rows stay as they were until Enter searches")
    func actionSearchIsNotPreviewed() {
        let clock = ManualClock()
        let app = app(clock)
        app.handle(.character("/"))
        type("a", into: app)
        clock.now = 1
        _ = app.renderFrame(width: 120, height: 40)
        #expect(app.model.hiding?.labels?.pattern == "a", "a label regex so far")
        type(":item 7", into: app)
        clock.now = 2
        _ = app.renderFrame(width: 120, height: 40)
        #expect(app.model.hiding == nil && app.model.filter == nil, "back to the view it opened on")
        app.handle(.enter)
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        #expect(app.model.cursor == 7 && app.model.hiding == nil)
    }

    @Test("keys keep answering while the preview's rows are computed")
    func keysAnswer() {
        let clock = ManualClock()
        let app = app(clock)
        app.handle(.character("/"))
        type("todo", into: app)
        clock.now = 1
        _ = app.renderFrame(width: 120, height: 40)
        app.handle(.backspace)
        app.handle(.backspace)
        guard case .prompt(let prompt) = app.model.dialog else {
            Issue.record("the prompt stays open")
            return
        }
        #expect(prompt.editor.text == "to")
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
    }
}
