import Testing
import RewindWire

@Suite("Applying JSON Patch")
struct JSONPatchApplyTests {
    private func patch(_ text: String) throws -> JSONPatch {
        try JSONPatch(json: JSONValue(parsing: text))
    }

    @Test("all six operations, in order")
    func sixOperations() throws {
        let doc: JSONValue = ["a": ["b": 1], "list": [1, 2, 3]]
        let p = try patch(#"""
        [{"op":"add","path":"/a/c","value":2},
         {"op":"remove","path":"/list/0"},
         {"op":"replace","path":"/a/b","value":"one"},
         {"op":"move","from":"/a/c","path":"/moved"},
         {"op":"copy","from":"/list","path":"/copy"},
         {"op":"test","path":"/copy/1","value":3.0}]
        """#)
        let result = try p.apply(to: doc)
        #expect(result == ["a": ["b": "one"], "list": [2, 3], "moved": 2, "copy": [2, 3]])
        #expect(doc == ["a": ["b": 1], "list": [1, 2, 3]], "the input is unchanged")
    }

    @Test("a failing operation names its index and location, and leaves nothing applied")
    func failure() throws {
        let doc: JSONValue = ["a": 1]
        let p = try patch(#"[{"op":"add","path":"/b","value":2},{"op":"remove","path":"/x/y"}]"#)
        do {
            _ = try p.apply(to: doc)
            Issue.record("expected a failure")
        } catch {
            #expect(error.operationIndex == 1)
            #expect(error.pointer == "/x/y")
            #expect(error.reason.contains("no member \"x\""))
        }
        var inPlace = doc
        #expect(throws: JSONPatchError.self) { try p.apply(to: &inPlace) }
        #expect(inPlace == ["a": 1, "b": 2], "in place keeps the operations before the failure")
    }

    @Test("a value cannot be moved into its own child")
    func moveIntoChild() throws {
        let p = try patch(#"[{"op":"move","from":"/a","path":"/a/b"}]"#)
        #expect(throws: JSONPatchError.self) { try p.apply(to: ["a": ["c": 1]]) }
    }

    @Test("malformed patches are rejected when read", arguments: [
        #"{"op":"add"}"#, #"[1]"#, #"[{"path":"/a"}]"#, #"[{"op":"jump","path":"/a"}]"#,
        #"[{"op":"add","path":"/a"}]"#, #"[{"op":"move","path":"/a"}]"#, #"[{"op":"add","path":3,"value":1}]"#,
        #"[{"op":"remove","path":"a"}]"#,
    ])
    func malformed(text: String) throws {
        let json = try JSONValue(parsing: text)
        #expect(throws: JSONPatchError.self) { try JSONPatch(json: json) }
    }

    @Test("the JSON form of every operation")
    func jsonForm() throws {
        let p = JSONPatch([
            .add(path: JSONPointer(tokens: ["a/b"]), value: 1),
            .remove(path: JSONPointer(tokens: ["x", "0"])),
            .move(from: JSONPointer(tokens: ["m~"]), path: .root),
        ])
        #expect(p.description == #"[{"op":"add","path":"/a~1b","value":1},{"op":"remove","path":"/x/0"},{"op":"move","from":"/m~0","path":""}]"#)
        #expect(try JSONPatch(json: p.json) == p)
    }

    @Test("a small patch to a large document touches only its path")
    func largeDocument() throws {
        var items: [JSONValue] = []
        for i in 0..<20_000 { items.append(["id": .int(Int64(i)), "title": .string("item \(i)"), "done": false]) }
        let doc: JSONValue = ["items": .array(items), "filter": "all"]
        let p = JSONPatch([.replace(path: try JSONPointer("/items/12345/done"), value: true)])
        let clock = ContinuousClock()
        let started = clock.now
        var result = doc
        for _ in 0..<100 { result = try p.apply(to: doc) }
        let elapsed = clock.now - started
        #expect(result["items"]?[12345]?["done"] == true)
        #expect(doc["items"]?[12345]?["done"] == false)
        // 100 applications copy only the 20,000-element top array each time: far below a second even in debug.
        #expect(elapsed < .seconds(2))
    }
}
