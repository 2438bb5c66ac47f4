import Testing
import RewindSessionFile
import RewindTUI
import RewindWire
import RewindTestSupport

@Suite("Rendering frames")
struct TimelineRenderTests {
    private func app(_ source: InMemoryTimelineDataSource = Fixtures.todoSource()) -> (TimelineApp, RecordingActions) {
        let actions = RecordingActions()
        return (TimelineApp(dataSource: source, actions: actions, environment: [:], clock: { 0 }), actions)
    }

    @Test("an 80×24 frame shows header, sessions, the newest events, the detail and the footer")
    func frame80x24() {
        let (app, _) = app()
        let frame = app.renderFrame(width: 80, height: 24)
        let lines = frame.lines
        #expect(lines.count == 24)
        #expect(lines.allSatisfy { DisplayWidth.of($0) == 80 })
        #expect(lines[0].hasPrefix(" rewind ws://127.0.0.1:7723 · 1 app · ● REC"))
        #expect(lines[0].hasSuffix("4/s  ▁▁▂▄█▄▂ "))
        #expect(lines[1].hasPrefix(" Sessions 2"))
        #expect(lines[2].hasPrefix("▸ ● todo"))
        #expect(lines[2].contains("30 ev  live"))
        #expect(lines[3].contains("counter") && lines[3].contains("ended"))
        #expect(lines[4].hasPrefix(" s-todo 30 events") && lines[4].contains("● following"))
        #expect(lines[5].hasPrefix("   #        time   label"))
        #expect(lines[5].dropLast(SessionMapView.width).hasSuffix("ops reducer "), "the session map takes the last two columns")
        let last = lines.firstIndex { $0.hasPrefix("  30     +7.500s   filter/set") }
        #expect(last != nil)
        if let last {
            #expect(frame[last, 0].style.reverse, "the cursor row is reversed")
            #expect(lines[last + 1].hasPrefix(" 1 Action   2 Diff   3 State"))
            #expect(lines[last + 2] .hasPrefix(" #30 filter/set"))
        }
        #expect(lines[23].hasPrefix(" ↑↓ move  Enter jump"))
        #expect(lines[23].hasSuffix("? help  q quit "))
    }

    @Test("a 200×60 frame puts the detail on the right and shows every event of a short session")
    func frame200x60() {
        let (app, _) = app()
        app.handle(.character("3"))
        let frame = app.renderFrame(width: 200, height: 60)
        let lines = frame.lines
        #expect(lines.count == 60)
        #expect(lines.allSatisfy { DisplayWidth.of($0) == 200 })
        #expect(lines[1].contains("│ 1 Action   2 Diff   3 State"))
        #expect(lines[2].contains("│ ▾ todos [10]   "))
        #expect(lines[6].hasPrefix("   0     +0.000s   initial state"))
        #expect(lines[36].hasPrefix("  30     +7.500s   filter/set"))
        #expect(frame.text.contains("filter: \"done\" •"), "the value the event changed is marked")
        #expect(lines[59].hasSuffix("? help  q quit "))
    }

    @Test("wide characters in labels keep the columns after them aligned")
    func wideLabels() throws {
        let source = Fixtures.todoSource(count: 0)
        for (offset, label) in ["todo/add", "待办/添加", "emoji/😀🎉", "café/e\u{301}dit", "très/long/\(String(repeating: "字", count: 60))"].enumerated() {
            try source.append(session: "s-todo", time: Fixtures.start + Double(offset), label: label,
                              patch: JSONPatch([.add(path: JSONPointer(tokens: ["x\(offset)"]), value: 1)]),
                              reducerMicros: 12)
        }
        let (app, _) = app(source)
        let lines = app.renderFrame(width: 80, height: 24).lines
        let rows = lines.filter { $0.contains("/") && $0.contains("12µs") }
        #expect(rows.count == 5)
        for row in rows {
            #expect(DisplayWidth.of(row) == 80, "\(row)")
            #expect(row.dropLast(SessionMapView.width).hasSuffix("1    12µs "), "before the session map: \(row)")
        }
        #expect(rows[4].contains("字 …     1"), "an over-long label is cut with an ellipsis, the wide character whole")
    }

    @Test("the Diff tab colours additions green, removals red and replacements yellow with old → new")
    func diffColours() throws {
        let source = Fixtures.todoSource(count: 0)
        let before: JSONValue = ["count": 1, "todos": ["a", "b"], "user": ["name": "bob"]]
        let after: JSONValue = ["count": 2, "todos": ["b", "c"], "user": ["name": "alice", "admin": true]]
        let patch = JSONPatch([
            .replace(path: JSONPointer(tokens: ["count"]), value: 2),
            .remove(path: JSONPointer(tokens: ["todos", "0"])),
            .add(path: JSONPointer(tokens: ["todos", "-"]), value: "c"),
            .replace(path: JSONPointer(tokens: ["user", "name"]), value: "alice"),
            .add(path: JSONPointer(tokens: ["user", "admin"]), value: true),
        ])
        try source.append(session: "s-todo", time: Fixtures.start, label: "setup", stateAfter: before)
        try source.append(session: "s-todo", time: Fixtures.start + 1, label: "edit", patch: patch)
        #expect(try source.state(session: "s-todo", index: 2) == after)
        let (app, _) = app(source)
        app.handle(.character("2"))
        let frame = app.renderFrame(width: 80, height: 30)
        let lines = frame.lines
        func row(_ prefix: String) -> Int? { lines.firstIndex { $0.hasPrefix(prefix) } }
        let count = try #require(row(" ~ count: 1 → 2"))
        let removed = try #require(row("   - 0: \"a\""))
        let added = try #require(row("   + 1: \"c\""))
        let name = try #require(row("   ~ name: \"bob\" → \"alice\""))
        let admin = try #require(row("   + admin: true"))
        #expect(row(" ▾ todos") != nil && row(" ▾ user") != nil)
        #expect(frame[count, 1].style.foreground == .yellow)
        #expect(frame[count, 10].style.foreground == .red, "the old value is red")
        #expect(frame[count, 14].style.foreground == .yellow, "the new value is yellow")
        #expect(frame[removed, 3].style.foreground == .red)
        #expect(frame[added, 3].style.foreground == .green)
        #expect(frame[name, 3].style.foreground == .yellow)
        #expect(frame[admin, 12].style.foreground == .green)
    }

    @Test("the State tab shows the state as a tree with the event's changes marked")
    func stateTree() {
        let (app, _) = app(Fixtures.todoSource(count: 4))
        app.handle(.character("3"))
        let text = app.renderOnce(width: 80, height: 40)
        #expect(text.contains(" ▾ todos [2] •"))
        #expect(text.contains("   ▾ 1 {3} •"))
        #expect(text.contains("       title: \"item 4\" •"))
        #expect(text.contains("   count: 2 •"))
        #expect(text.contains("   filter: \"all\"\n"), "unchanged values are not marked")
    }

    @Test("a filter (/ Enter) shows only the matching rows, highlighted; a label filter alone dims the other rows")
    func filterRendering() throws {
        let (app, _) = app()
        for key in [Key.character("/")] + "add".map(Key.character) + [.enter] { app.handle(key) }
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)), "the search and the rows (off the UI thread) finished")
        var frame = app.renderFrame(width: 80, height: 24)
        #expect(frame.lines[4].contains("only /add/"))
        #expect(app.model.cursor == 1, "the search wrapped to the first match")
        let matching = try #require(frame.lines.firstIndex { $0.hasPrefix("   4 ") })
        #expect(frame.lines.firstIndex { $0.hasPrefix("   5 ") } == nil, "the other rows are hidden")
        #expect(frame[matching, 20].style == Theme.match)
        // Esc shows every row; a label filter without hidden rows (the stats view's Enter) dims the others.
        app.handle(.escape)
        app.handle(.character("S"))
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        app.handle(.enter)
        frame = app.renderFrame(width: 80, height: 24)
        let highlighted = try #require(app.model.filter)
        let other = try #require(frame.lines.firstIndex { line in
            guard let label = ["todo/add", "todo/toggle", "filter/set"].first(where: { line.contains("s   \($0)") })
            else { return false }
            return !highlighted.matches(label)
        })
        #expect(frame[other, 3].style.dim, "\(frame.lines[other])")
    }

    @Test("the prompt line shows the typed text with a cursor and the reason a submission was refused")
    func prompt() {
        let (app, _) = app()
        app.handle(.character("d"))
        app.handle(.control("u"))  // clear the newest event's recorded action
        for character in "{oops" { app.handle(.character(character)) }
        app.handle(.enter)
        let frame = app.renderFrame(width: 80, height: 24)
        let line = frame.lines[22]
        #expect(line.hasPrefix("dispatch JSON: {oops "))
        #expect(line.contains("not valid JSON"))
        #expect(frame[22, 20].style == Theme.selection, "the cursor cell after the text")
        #expect(frame.lines[23].hasPrefix(" Enter dispatch  Esc cancel"))
    }

    @Test("the outcome of an action shows in the status line until the next key")
    func statusLine() {
        let (app, actions) = app()
        app.handle(.enter)
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        #expect(actions.calls == ["jump s-todo 30"])
        #expect(app.renderFrame(width: 80, height: 24).lines[22].hasPrefix(" done: jump s-todo 30"))
        actions.failure = RecordingActions.Refused(description: "no app is connected to this session")
        app.handle(.character("r"))
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        let frame = app.renderFrame(width: 80, height: 24)
        #expect(frame.lines[22].hasPrefix(" no app is connected to this session"))
        #expect(frame[22, 1].style == Theme.error)
        app.handle(.character("j"))
        #expect(!app.renderOnce(width: 80, height: 24).contains("no app is connected"))
    }

    @Test("scrolled away from live events, the title counts the new ones")
    func newIndicator() throws {
        let source = Fixtures.todoSource(count: 100)
        let (app, _) = app(source)
        _ = app.renderFrame(width: 80, height: 24)
        app.handle(.character("g"))
        for _ in 0..<12 { try source.append(session: "s-todo", time: Fixtures.start + 200, label: "late") }
        let lines = app.renderFrame(width: 80, height: 24).lines
        #expect(lines[4].contains("▼ 12 new · f follow"))
    }

    @Test("markers show jumps, replays, drops, errors and reconnects")
    func markers() throws {
        let source = Fixtures.todoSource(count: 0)
        let kinds: [(EventKind, String)] = [
            (.jump, "J"), (.replay, "R"), (.dropped, "D"), (.error, "E"), (.reconnect, "C"), (.snapshot, "S"),
        ]
        for (offset, entry) in kinds.enumerated() {
            try source.append(session: "s-todo", time: Fixtures.start + Double(offset), kind: entry.0,
                              detail: "detail \(offset)")
        }
        let (app, _) = app(source)
        let lines = app.renderFrame(width: 80, height: 24).lines
        for (offset, entry) in kinds.enumerated() {
            let line = lines.first { $0.hasPrefix(String(format: "%4d ", offset + 1)) }
            #expect(line?.contains(" \(entry.1) \(entry.0.rawValue)  detail \(offset)") == true, "\(line ?? "")")
        }
    }

    @Test("the help overlay lists every key, including quit, at 80×24")
    func helpOverlay() {
        let (app, _) = app()
        app.handle(.character("?"))
        let text = app.renderOnce(width: 80, height: 24)
        for expected in ["Keys — any key closes", "jump app to this state", "skip / un-skip action", "replay from here",
                         "dispatch action (JSON)", "search labels (regex)", "next / previous match",
                         "follow live events", "relative / clock time", "export the session", "quit (asks if apps on)"] {
            #expect(text.contains(expected), "\(expected)")
        }
    }

    @Test("a terminal below the minimum size shows a clear message")
    func tooSmall() {
        let (app, _) = app()
        #expect(app.renderOnce(width: 30, height: 8).contains("Terminal too small: 30×8"))
    }

    @Test("with no sessions the panes say how to get one")
    func empty() {
        let source = InMemoryTimelineDataSource(header: TimelineHeader(listeningAddress: "ws://127.0.0.1:7723"))
        let (app, _) = app(source)
        let text = app.renderOnce(width: 80, height: 24)
        #expect(text.contains("No sessions yet"))
        #expect(text.contains("0 apps"))
        #expect(text.contains("○ not recording"))
    }
}
