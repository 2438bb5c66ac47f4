import Foundation
import Testing
import RewindTUI
import RewindWire

@Suite("Big values: paging arrays, whole strings, pager and copy")
struct BigValuesTests {
    static let longText = (0..<60).map { "sentence \($0) of a long description." }.joined(separator: " ") + " THE END"

    /// One event whose state holds an array of 5,000 numbers and a 2,500-character string.
    private func source(directory: URL? = nil) throws -> InMemoryTimelineDataSource {
        let source = InMemoryTimelineDataSource(dataDirectory: directory)
        source.addSession(id: "s-big", appName: "big", startedAt: Fixtures.start, status: .ended,
                          initialState: ["n": 0])
        let state: JSONValue = ["items": .array((0..<5_000).map { .int(Int64($0)) }), "text": .string(Self.longText)]
        try source.append(session: "s-big", time: Fixtures.start + 1, label: "load", action: ["type": "load"],
                          patch: JSONPatch.diff(from: ["n": 0], to: state), stateAfter: state)
        return source
    }

    private func app(_ source: InMemoryTimelineDataSource) -> TimelineApp {
        let app = TimelineApp(dataSource: source, actions: NoActions(), initialSession: "s-big", environment: [:],
                              clock: { 0 })
        app.handle(.character("G"))  // event 1
        app.handle(.character("3"))  // State tab
        app.handle(.tab)             // the detail pane
        return app
    }

    @Test("an array cut at 2,000 pages on with Enter on its 'more' line, 2,000 at a time, to its end")
    func pagesIntoAnArray() throws {
        let app = app(try source())
        app.handle(.character("G"))  // the last line: text
        app.handle(.character("k"))  // the array's more line
        var text = app.renderOnce(width: 100, height: 30)
        #expect(text.contains("… 3,000 more — Enter shows the next 2,000"), "\(text)")
        app.handle(.enter)
        text = app.renderOnce(width: 100, height: 30)
        #expect(text.contains("2000: 2000"), "the cursor is on the first item shown: \(text)")
        app.handle(.character("G"))
        app.handle(.character("k"))
        text = app.renderOnce(width: 100, height: 30)
        #expect(text.contains("3999: 3999") && text.contains("… 1,000 more — Enter shows the next 1,000"), "\(text)")
        app.handle(.enter)
        app.handle(.character("G"))
        app.handle(.character("k"))
        text = app.renderOnce(width: 100, height: 30)
        #expect(text.contains("4999: 4999") && !text.contains("more —"), "\(text)")
    }

    @Test("a long string is cut in the tree and shown whole, wrapped, in the viewer; Esc closes it")
    func viewsALongString() throws {
        let app = app(try source())
        // Lines: ▾ items, 2,000 items, the more line, then text.
        app.handle(.character("G"))
        var text = app.renderOnce(width: 100, height: 30)
        #expect(text.contains("text: \"sentence 0 of a long description."))
        #expect(!text.contains("THE END"), "the tree cuts the string")
        app.handle(.enter)
        guard case .viewer(let viewer)? = app.model.dialog else {
            Issue.record("no viewer: \(app.model.dialog.map { "\($0)" } ?? "nil")")
            return
        }
        #expect(viewer.path == "/text" && viewer.text == Self.longText)
        text = app.renderOnce(width: 100, height: 30)
        #expect(text.contains("state /text · 23 lines"), "words are not cut: \(text)")
        #expect(text.contains("THE END"), "wrapped, the whole string fits")
        let lines = text.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("│ sentence 0 of a long description. sentence 1") })
        #expect(lines.last?.hasPrefix(" ↑↓ PgUp PgDn scroll  o pager  y copy  Y copy pointer  Esc close") == true)
        app.handle(.escape)
        #expect(app.model.dialog == nil)
    }

    @Test("a Diff-tab line's value is shown whole too (the diff cuts it), and Y copies its pointer")
    func diffValue() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-copy-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var controller = TimelineController(dataSource: try source(directory: directory), initialSession: "s-big",
                                            clock: { 0 })
        controller.resize(width: 100, height: 30)
        controller.refresh()
        _ = controller.handle(.character("G"))
        _ = controller.handle(.character("2"))
        _ = controller.handle(.tab)
        let lines = controller.detailContent.content(for: controller.model, now: 0).lines
        let text = try #require(lines.firstIndex { $0.text.hasPrefix("+ text: ") }, "\(lines.map(\.text))")
        #expect(lines[text].text.hasSuffix("…"), "the diff cuts it")
        for _ in 0..<text { _ = controller.handle(.down) }
        _ = controller.handle(.enter)
        guard case .viewer(let viewer)? = controller.model.dialog else {
            Issue.record("no viewer")
            return
        }
        #expect(viewer.tab == .diff && viewer.path == "/text" && viewer.text == Self.longText)
        #expect(controller.handle(.character("y")) == [.copy(text: Self.longText, what: "the value at /text")])
        _ = controller.handle(.escape)
        #expect(controller.handle(.character("Y")) == [.copy(text: "/text", what: "the JSON Pointer /text")])
        #expect(controller.handle(.character("o")) == [.openInPager(text: Self.longText, name: "value.txt")])
    }

    @Test("an action's big array pages on in the Action tab too")
    func actionArray() throws {
        let source = InMemoryTimelineDataSource()
        source.addSession(id: "s-act", appName: "bulk", startedAt: Fixtures.start, status: .ended)
        try source.append(session: "s-act", time: Fixtures.start + 1, label: "bulk",
                          action: ["type": "bulk", "ids": .array((0..<4_500).map { .int(Int64($0)) })])
        var controller = TimelineController(dataSource: source, initialSession: "s-act", clock: { 0 })
        controller.resize(width: 100, height: 30)
        controller.refresh()
        _ = controller.handle(.character("G"))
        _ = controller.handle(.tab)
        let first = controller.detailContent.content(for: controller.model, now: 0).lines
        let more = try #require(first.firstIndex { $0.isMore })
        #expect(first[more].text.hasSuffix("… 2,500 more — Enter shows the next 2,000"))
        #expect(first[more].path == "/ids")
        for _ in 0..<more { _ = controller.handle(.down) }
        _ = controller.handle(.enter)
        let paged = controller.detailContent.content(for: controller.model, now: 0).lines
        #expect(paged[more].text.hasSuffix("2000,"), "the cursor's line is now the first new element")
        #expect(paged.first { $0.isMore }?.text.hasSuffix("… 500 more — Enter shows the next 500") == true)
        #expect(controller.model.childLimits.isEmpty, "the State tab's limits are its own")
    }

    @Test("the detail pane's footer offers Enter, v, o, y and Y only where they do something")
    func detailFooter() throws {
        let app = app(try source())
        func footer() -> String { app.renderFrame(width: 160, height: 30).lines[29] }
        app.handle(.character("g"))  // ▾ items
        var keys = footer()
        #expect(keys.contains("Enter fold") && keys.contains("v view") && keys.contains("o pager")
                && keys.contains("y Y copy value/pointer"), "a container: \(keys)")
        app.handle(.character("G"))
        #expect(footer().contains("Enter view") && !footer().contains("v view"), "a string")
        app.handle(.character("k"))
        keys = footer()
        #expect(keys.contains("Enter show more") && !keys.contains("o pager") && !keys.contains("y Y"), "more: \(keys)")
        app.handle(.character("1"))  // the Action tab: its first line is the event's title
        app.handle(.character("g"))
        keys = footer()
        #expect(!keys.contains("Enter") && !keys.contains("o pager") && keys.contains("[ ] tab"), "a title: \(keys)")
    }

    @Test("y copies the value, Y its JSON Pointer, to a file in the data directory without a terminal")
    func copies() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-copy-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = app(try source(directory: directory))
        app.handle(.character("G"))
        app.handle(.character("y"))
        let file = directory.appendingPathComponent("copied.txt")
        #expect(app.model.status == StatusMessage("copied the value at /text to \(file.path)"))
        #expect(try String(contentsOf: file, encoding: .utf8) == Self.longText)
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600, "only the user reads what was copied")
        app.handle(.character("Y"))
        #expect(try String(contentsOf: file, encoding: .utf8) == "/text")
        app.handle(.character("o"))
        #expect(app.model.status == StatusMessage("no terminal to run the pager on", isError: true))
    }

    @Test("OSC 52 is used only where the terminal takes it: not under tmux or screen")
    func osc52Choice() {
        #expect(Clipboard.takesOSC52(environment: ["TERM": "xterm-256color"]))
        #expect(Clipboard.takesOSC52(environment: ["TERM": "xterm-kitty"]))
        #expect(!Clipboard.takesOSC52(environment: ["TERM": "xterm-256color", "TMUX": "/tmp/tmux-0/default,1,0"]))
        #expect(!Clipboard.takesOSC52(environment: ["TERM": "tmux-256color"]))
        #expect(!Clipboard.takesOSC52(environment: ["TERM": "screen", "STY": "1.pts"]))
        #expect(!Clipboard.takesOSC52(environment: ["TERM": "linux"]))
        #expect(Clipboard.osc52("hi") == "\u{1B}]52;c;aGk=\u{07}")
    }

    @Test("the viewer wraps at the width, keeps line breaks, and shows control characters escaped")
    func wrapping() {
        #expect(ValueViewerState.wrap("abcdefgh", width: 3) == ["abc", "def", "gh"])
        #expect(ValueViewerState.wrap("the quick brown fox", width: 12) == ["the quick ", "brown fox"],
                "after the last space that fits")
        #expect(ValueViewerState.wrap("a verylongword", width: 8) == ["a verylo", "ngword"],
                "a space in the first half does not make a short line")
        #expect(ValueViewerState.wrap("ab\ncd\r\nef", width: 10) == ["ab", "cd", "ef"])
        #expect(ValueViewerState.wrap("a\u{1B}[2Jb", width: 20) == ["a\\u{1b}[2Jb"])
        #expect(ValueViewerState.wrap("日本語", width: 4) == ["日本", "語"])
        #expect(ValueViewerState.text(of: ["a": 1]) == JSONValue.object(["a": 1]).prettyPrinted())
    }
}
