import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTUI
import RewindWire
import Testing
import RewindTestSupport

/// Issue 22's `/` search: the query grammar, and the session file's search (label index, action text, state
/// conditions) giving the same answers as the row-by-row search of an in-memory source.
@Suite("Search: labels, actions and states")
struct SearchTests {
    @Test("the query grammar: a label regex, action: text, state: pointer op value; errors say what is wrong")
    func grammar() throws {
        #expect(try TimelineSearchQuery(parsing: "todo/").labelFilter?.pattern == "todo/")
        #expect(try TimelineSearchQuery(parsing: "action:milk") == .action(text: "milk"))
        #expect(try TimelineSearchQuery(parsing: "a: \"milk\"") == .action(text: "\"milk\""))
        guard case .state(let condition) = try TimelineSearchQuery(parsing: "s:/user/name == null") else {
            Issue.record("not a state query")
            return
        }
        #expect(condition.tokens == ["user", "name"] && condition.op == .equals && condition.value == .null)
        #expect(condition.description == "/user/name == null")
        #expect(throws: TimelineSearchQuery.Invalid.self) { try TimelineSearchQuery(parsing: "(unclosed") }
        #expect(throws: TimelineSearchQuery.Invalid.self) { try TimelineSearchQuery(parsing: "action:") }
        #expect(throws: TimelineSearchQuery.Invalid.self) { try TimelineSearchQuery(parsing: "state:/a") }
        #expect(throws: TimelineSearchQuery.Invalid.self) { try TimelineSearchQuery(parsing: "state:a == 1") }
        #expect(throws: TimelineSearchQuery.Invalid.self) { try TimelineSearchQuery(parsing: "state:/a == {oops") }
    }

    @Test("state conditions: a missing member is null, * reaches every element, contains looks inside")
    func conditions() throws {
        func holds(_ text: String, _ state: JSONValue) throws -> Bool {
            guard case .state(let condition) = try TimelineSearchQuery(parsing: "state:" + text) else { return false }
            return condition.holds(in: state)
        }
        let state: JSONValue = ["user": ["id": 1], "items": [["title": "oat milk"], ["title": "bread"]], "n": 2]
        #expect(try holds("/user/name == null", state))
        #expect(try !holds("/user/id == null", state))
        #expect(try holds("/user/id == 1.0", state), "numbers compare by value")
        #expect(try holds("/items/* contains \"milk\"", state))
        #expect(try !holds("/items/* contains \"cheese\"", state))
        #expect(try holds("/items/1/title == bread", state), "a bare word is a string")
        #expect(try holds("/n != 3", state))
        #expect(try holds(" contains 2", state), "the whole state contains the number 2")
    }

    @Test("state conditions order numbers by value and strings by text: <, <=, >, >= (issue 32: /cart/total < 0)")
    func orderingConditions() throws {
        func holds(_ text: String, _ state: JSONValue) throws -> Bool {
            guard case .state(let condition) = try TimelineSearchQuery(parsing: "state:" + text) else { return false }
            return condition.holds(in: state)
        }
        let state: JSONValue = ["cart": ["total": -5, "items": [3, 2.5]], "user": "bob"]
        #expect(try holds("/cart/total < 0", state))
        #expect(try !holds("/cart/total < -5", state) && holds("/cart/total <= -5", state))
        #expect(try holds("/cart/total >= -5.0", state) && !holds("/cart/total > -5", state))
        #expect(try holds("/cart/items/* > 2.75", state), "* holds when any element does")
        #expect(try holds("/user > \"ann\"", state) && holds("/user < carl", state), "strings by text")
        #expect(try !holds("/user < 3", state) && !holds("/missing < 1", state), "other pairs never hold")
        guard case .state(let condition) = try TimelineSearchQuery(parsing: "s:/a<=1") else {
            Issue.record("not a state query")
            return
        }
        #expect(condition.op == .lessOrEqual && condition.tokens == ["a"] && condition.description == "/a <= 1")
    }

    /// The same session in a file and in memory: 3,000 events, labels `tick` with `tock` every 1,000th and a
    /// single `rare/one` at 1,777; the action `{"n":i}`; the state `{"n":i, "even": i is even}`.
    private static func sessions() throws -> (file: SessionTimelineSource, memory: InMemoryTimelineDataSource,
                                              id: String, directory: URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-st-\(UUID().uuidString)")
        let store = try SessionStore(directory: directory)
        let initial: JSONValue = ["n": 0, "even": true]
        let recording = try store.createSession(appName: "s", protocolVersion: 1, initialState: initial,
                                                startedAt: Date(timeIntervalSince1970: Fixtures.start))
        let memory = InMemoryTimelineDataSource()
        memory.addSession(id: recording.id.rawValue, appName: "s", instance: "s:1", startedAt: Fixtures.start,
                          status: .ended, initialState: initial)
        var previous = initial
        for index in 1...3_000 {
            let label = index == 1_777 ? "rare/one" : index % 1000 == 0 ? "tock" : "tick"
            let state: JSONValue = ["n": .int(Int64(index)), "even": .bool(index % 2 == 0)]
            let patch = JSONPatch.diff(from: previous, to: state)
            recording.append(NewEvent(appSeq: Int64(index), time: Fixtures.start + Double(index), label: label,
                                      action: ["n": .int(Int64(index))], patch: patch), stateAfter: state)
            _ = try memory.append(session: recording.id.rawValue, time: Fixtures.start + Double(index), label: label,
                              action: ["n": .int(Int64(index))], patch: patch, stateAfter: state)
            previous = state
        }
        recording.finish(endState: .clean)
        return (SessionTimelineSource(store: store, daemon: nil, only: recording.id), memory, recording.id.rawValue,
                directory)
    }

    @Test("the session file's search (index, SQL, patches) answers as the in-memory row-by-row search does")
    func fileMatchesMemory() throws {
        let (file, memory, id, directory) = try Self.sessions()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cases: [(String, ClosedRange<Int>, Bool, Int?)] = [
            ("tock", 1...3_000, true, 1_000),
            ("tock", 1...2_999, false, 2_000),
            ("^rare/", 1...3_000, false, 1_777),
            ("^rare/", 1_778...3_000, true, nil),
            ("^ACTION$", 1...3_000, true, nil),
            ("action:{\"n\":2345}", 1...3_000, true, 2_345),
            ("action:\"n\":29", 1...3_000, false, 2_999),
            ("state:/n == 2500", 1...3_000, true, 2_500),
            ("state:/n == 2500", 2_501...3_000, true, nil),
            ("state:/even == true", 11...3_000, true, 12),
            ("state:/even == true", 1...11, false, 10),
        ]
        for (text, range, forward, expected) in cases {
            let query = try TimelineSearchQuery(parsing: text)
            let inFile = try file.firstEvent(session: id, matching: query, in: range, forward: forward,
                                             progress: TimelineSearchProgress())
            let inMemory = try memory.firstEvent(session: id, matching: query, in: range, forward: forward,
                                                 progress: TimelineSearchProgress())
            #expect(inFile == expected, "\(text) in \(range) \(forward ? "forward" : "backward") (file)")
            #expect(inMemory == expected, "\(text) in \(range) \(forward ? "forward" : "backward") (memory)")
        }
    }

    @Test("a cancelled search stops with Cancelled; progress reports how far it got")
    func cancelAndProgress() throws {
        let (file, _, id, directory) = try Self.sessions()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cancelled = TimelineSearchProgress()
        cancelled.cancel()
        #expect(throws: TimelineSearchProgress.Cancelled.self) {
            try file.firstEvent(session: id, matching: try TimelineSearchQuery(parsing: "state:/n == -1"),
                                in: 1...3_000, forward: true, progress: cancelled)
        }
        let progress = TimelineSearchProgress()
        #expect(try file.firstEvent(session: id, matching: try TimelineSearchQuery(parsing: "state:/n == -1"),
                                    in: 1...3_000, forward: true, progress: progress) == nil)
        #expect(progress.fraction == (3_000, 3_000))
    }

    @Test("a search runs off the UI thread: the app answers keys while it runs, and shows where it landed")
    func appSearch() throws {
        let (file, _, id, directory) = try Self.sessions()
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = TimelineApp(dataSource: file, actions: RecordingActions(), initialSession: id, clock: { 0 })
        _ = app.renderFrame(width: 100, height: 30)
        for key in [Key.character("/")] + "action:2345}".map(Key.character) + [.enter] { app.handle(key) }
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        #expect(app.model.cursor == 2_345)
        #expect(app.renderOnce(width: 100, height: 30).contains("event 2,345: action:2345}"))
        for key in [Key.character("/"), .control("u")] + "zzz-none".map(Key.character) + [.enter] { app.handle(key) }
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        #expect(app.model.status?.text == "no event label matches /zzz-none/")
    }
}

/// Issue 31: the `/` prompt opens empty, so typing a new search does not append to the old one; Up and Down recall
/// past searches as a shell or vim's `/` does.
@Suite("The / prompt: opens empty, Up recalls past searches")
struct SearchPromptHistoryTests {
    private static func app() -> TimelineApp {
        let source = InMemoryTimelineDataSource()
        source.addSession(id: "s", appName: "s", instance: "s:1", startedAt: Fixtures.start, status: .ended,
                          initialState: ["n": 0])
        for (index, label) in ["navigation/push", "login/alice", "navigation/pop"].enumerated() {
            _ = try? source.append(session: "s", time: Fixtures.start + Double(index + 1), label: label,
                                   action: ["n": .int(Int64(index))], patch: JSONPatch([]), stateAfter: ["n": 0])
        }
        let app = TimelineApp(dataSource: source, actions: RecordingActions(), initialSession: "s", clock: { 0 })
        _ = app.renderFrame(width: 100, height: 30)
        return app
    }

    private static func prompt(_ app: TimelineApp) -> PromptState? {
        if case .prompt(let prompt) = app.model.dialog { return prompt }
        return nil
    }

    private static func type(_ text: String, into app: TimelineApp, then last: Key = .enter) {
        for key in text.map(Key.character) + [last] { app.handle(key) }
    }

    @Test("after /navigation, / then a:alice searches a:alice, not navigationa:alice")
    func opensEmpty() {
        let app = Self.app()
        app.handle(.character("/"))
        Self.type("navigation", into: app)
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        app.handle(.character("/"))
        #expect(Self.prompt(app)?.editor.text == "")
        Self.type("a:alice", into: app)
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        #expect(app.model.searchQuery?.description == TimelineSearchQuery.action(text: "alice").description)
        #expect(app.model.searchHistory == ["navigation", "a:alice"])
    }

    @Test("Up recalls the newest past search, then older ones; Down comes back to what was being typed")
    func upAndDown() {
        let app = Self.app()
        for search in ["navigation", "login", "navigation"] {
            app.handle(.character("/"))
            Self.type(search, into: app)
            #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        }
        #expect(app.model.searchHistory == ["login", "navigation"])
        app.handle(.character("/"))
        Self.type("pu", into: app, then: .up)
        #expect(Self.prompt(app)?.editor.text == "navigation")
        app.handle(.up)
        #expect(Self.prompt(app)?.editor.text == "login")
        app.handle(.up)
        #expect(Self.prompt(app)?.editor.text == "login")
        app.handle(.down)
        #expect(Self.prompt(app)?.editor.text == "navigation")
        app.handle(.down)
        #expect(Self.prompt(app)?.editor.text == "pu")
        app.handle(.character("s"))
        app.handle(.enter)
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        #expect(app.model.searchHistory == ["login", "navigation", "pus"])
    }

    @Test("Up recalls a Tab filter too; the prompt's footer names Up/Down and ^U")
    func tabAndFooter() {
        let app = Self.app()
        app.handle(.character("/"))
        Self.type("navigation", into: app, then: .tab)
        app.handle(.character("/"))
        let screen = app.renderOnce(width: 100, height: 30)
        #expect(screen.contains("↑↓ past searches"))
        #expect(screen.contains("^U clear"))
        app.handle(.up)
        #expect(Self.prompt(app)?.editor.text == "navigation")
    }
}

/// Issue 22's row filter: `/REGEX` then Tab shows only the matching rows, `/-kind,…` hides kinds, Esc shows all.
@Suite("Hiding rows")
struct HidingRowsTests {
    @Test("Tab in the / prompt shows only matching rows; j, G and the title follow; -kind hides kinds; Esc clears")
    func hideRows() throws {
        let source = Fixtures.todoSource(count: 30, status: .ended)
        _ = try source.append(session: "s-todo", time: Fixtures.start + 100, kind: .note, label: nil,
                              stateAfter: nil)
        let app = TimelineApp(dataSource: source, actions: RecordingActions(), initialSession: "s-todo", clock: { 0 })
        _ = app.renderFrame(width: 100, height: 30)
        for key in [Key.character("/")] + "toggle".map(Key.character) + [.tab] { app.handle(key) }
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        var frame = app.renderOnce(width: 100, height: 30)
        #expect(frame.contains("only /toggle/"), "\(frame)")
        #expect(frame.contains("10 of 31 events shown (only /toggle/); Esc shows all"), "\(frame)")
        let rows = frame.split(separator: "\n").filter {
            $0.range(of: #"^ +[0-9]+ +\+[0-9]"#, options: .regularExpression) != nil && !$0.contains("initial state")
        }
        #expect(rows.allSatisfy { $0.contains("todo/toggle") }, "only toggles are listed: \(rows)")
        #expect(rows.count == 10)
        app.handle(.home)
        app.handle(.character("j"))
        #expect(app.model.cursor == 2)
        app.handle(.character("j"))
        #expect(app.model.cursor == 5, "j goes to the next shown row")
        app.handle(.character("G"))
        #expect(app.model.cursor == 29)

        // Kinds: hide the note (the label filter stays).
        app.handle(.escape)
        for key in [Key.character("/"), .control("u")] + "-note".map(Key.character) + [.enter] { app.handle(key) }
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        frame = app.renderOnce(width: 100, height: 30)
        #expect(frame.contains("no note"), "\(frame)")
        app.handle(.character("G"))
        #expect(app.model.cursor == 30, "the note (31) is hidden: the last row is 30")
        for key in [Key.character("/"), .control("u")] + "-nothing".map(Key.character) + [.enter] { app.handle(key) }
        guard case .prompt(let prompt) = app.model.dialog else {
            Issue.record("an unknown kind closed the prompt")
            return
        }
        #expect(prompt.error?.hasPrefix("no event kind 'nothing' (kinds: action, snapshot") == true)
        app.handle(.escape)
        app.handle(.escape)
        #expect(app.model.hiding == nil)
        app.handle(.character("G"))
        #expect(app.model.cursor == 31)
    }
}
