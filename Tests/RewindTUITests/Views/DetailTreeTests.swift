import Testing
import RewindTUI
import RewindWire

@Suite("Detail trees")
struct DetailTreeTests {
    @Test("the action is pretty-printed with keys, strings, numbers and literals in their colours")
    func jsonLines() {
        let lines = JSONLines.lines(["type": "todo/add", "payload": ["title": "milk", "count": 2, "done": false, "tags": []]])
        #expect(lines.map(\.text) == [
            "{",
            "  \"type\": \"todo/add\",",
            "  \"payload\": {",
            "    \"title\": \"milk\",",
            "    \"count\": 2,",
            "    \"done\": false,",
            "    \"tags\": []",
            "  }",
            "}",
        ])
        #expect(lines[1].spans[0].style == Theme.jsonKey)
        #expect(lines[1].spans[2].style == Theme.jsonString)
        #expect(lines[4].spans[2].style == Theme.jsonNumber)
        #expect(lines[5].spans[2].style == Theme.jsonLiteral)
    }

    @Test("moves and copies name their source; a patch of nothing says so")
    func diffMoves() {
        let before: JSONValue = ["a": ["x": 1], "b": [:]]
        let lines = DiffTree.lines(patch: JSONPatch([
            .move(from: JSONPointer(tokens: ["a", "x"]), path: JSONPointer(tokens: ["b", "y"])),
            .copy(from: JSONPointer(tokens: ["b", "y"]), path: JSONPointer(tokens: ["c"])),
        ]), before: before)
        #expect(lines.map(\.text) == ["▾ b", "  » y: moved from /a/x  1", "» c: copied from /b/y  1"])
        #expect(lines[1].spans[0].style.foreground == .blue)
        #expect(DiffTree.lines(patch: JSONPatch(), before: before).map(\.text) == ["(no change to the state)"])
    }

    @Test("replacing the whole state shows one line for the root")
    func diffRoot() {
        let lines = DiffTree.lines(patch: JSONPatch([.replace(path: .root, value: ["n": 2])]), before: ["n": 1])
        #expect(lines.map(\.text) == [#"~ (whole state): {"n":1} → {"n":2}"#])
    }

    @Test("a huge container lists its first children and says how many more there are")
    func cappedChildren() {
        let state: JSONValue = ["items": .array((0..<5_000).map { .int(Int64($0)) })]
        let lines = StateTree.lines(state, toggled: [])
        #expect(lines.count == 1 + StateTree.maxChildren + 1)
        #expect(lines.last?.text == "    … 3,000 more — Enter shows the next 2,000")
        #expect(lines.last?.isMore == true && lines.last?.path == "/items")
        let paged = StateTree.lines(state, toggled: [], limits: ["/items": 4_000])
        #expect(paged.count == 1 + 4_000 + 1)
        #expect(paged.last?.text == "    … 1,000 more — Enter shows the next 1,000")
        let all = StateTree.lines(state, toggled: [], limits: ["/items": 6_000])
        #expect(all.count == 1 + 5_000)
        #expect(all.last?.text == "    4999: 4999")
    }

    @Test("collapsed containers show a bounded one-line preview")
    func preview() {
        let state: JSONValue = ["a": ["b": ["c": ["d": .string(String(repeating: "x", count: 10_000))]]]]
        let lines = StateTree.lines(state, toggled: [])
        let collapsed = lines.first { $0.path == "/a/b/c" }
        #expect(collapsed?.isContainer == true && collapsed?.isExpanded == false)
        #expect((collapsed?.text.count ?? 0) < 160)
        #expect(collapsed?.text.hasSuffix("…") == true)
        #expect(JSONPreview.text(["k": "v"]) == #"{"k":"v"}"#)
    }

    @Test("keys with / and ~ get escaped JSON Pointer paths")
    func escaping() {
        let lines = StateTree.lines(["a/b": ["~c": 1]], toggled: [])
        #expect(lines.map(\.path) == ["/a~1b", "/a~1b/~0c"])
    }
}
