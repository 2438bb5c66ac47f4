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
        #expect(inPlace == ["a": 1], "in place, the operations before the failure are undone")
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

    @Test("a malformed patch names what it is with its article: not an object, not an array (issue 31)", arguments: [
        (#"{"op":"add"}"#, "a JSON Patch must be an array of operations, not an object"),
        (#"[[1]]"#, "an operation must be an object, not an array"),
        (#"[{"op":1,"path":"/a"}]"#, "'op' must be a string, not a number"),
        (#"[{"op":"add","path":null,"value":1}]"#, "'path' must be a string, not null"),
    ])
    func malformedSaysWhatItIs(text: String, reason: String) throws {
        let json = try JSONValue(parsing: text)
        #expect { try JSONPatch(json: json) } throws: { error in
            (error as? JSONPatchError)?.reason == reason
        }
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

    @Test("in place, a uniquely held document is patched without copying its containers")
    func inPlaceDoesNotCopy() throws {
        func itemsAddress(_ doc: JSONValue) -> UnsafeRawPointer? {
            doc["items"]?.arrayValue?.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        }
        let patch = JSONPatch([
            .replace(path: try JSONPointer("/items/500/done"), value: true),
            .remove(path: try JSONPointer("/items/0")),
        ])
        var doc: JSONValue = ["items": .array((0..<1_000).map { ["id": .int(Int64($0)), "done": false] }), "n": 1]
        let original = itemsAddress(doc)

        var shared = doc
        try patch.apply(to: &shared)
        #expect(itemsAddress(shared) != original, "a shared document is copied, not changed under its other owner")
        #expect(itemsAddress(doc) == original)

        try patch.apply(to: &doc)
        #expect(itemsAddress(doc) == original, "a unique document is patched in place")
        #expect(doc == shared)
        #expect(doc["items"]?[499]?["done"] == true)
    }

    /// Every pointer to a value inside `value` (the root included).
    private func pointers(in value: JSONValue, at prefix: [String] = []) -> [JSONPointer] {
        var result = [JSONPointer(tokens: prefix)]
        switch value {
        case .object(let o):
            for (key, child) in o { result += pointers(in: child, at: prefix + [key]) }
        case .array(let a):
            for (i, child) in a.enumerated() { result += pointers(in: child, at: prefix + [String(i)]) }
        default:
            break
        }
        return result
    }

    @Test("in place, a failing patch leaves the document exactly as it was, key order included")
    func rollBack() throws {
        var docs = RandomDocuments(rng: SeededGenerator(seed: 0xBAD_C0DE))
        var rolledBack = 0
        for _ in 0..<2_000 {
            let a = docs.value(depth: 4)
            let b = docs.mutate(a, depth: 4)
            var operations = JSONPatch.diff(from: a, to: b).operations
            // Mix in moves and copies between existing locations, then an operation that fails.
            let here = pointers(in: a)
            if here.count > 1 {
                let from = here[Int.random(in: 1..<here.count, using: &docs.rng)]
                operations.insert(.copy(from: from, path: JSONPointer(tokens: ["copied"])), at: 0)
                if case .object = a {
                    operations.insert(.move(from: JSONPointer(tokens: ["copied"]), path: JSONPointer(tokens: ["moved"])), at: 1)
                }
            }
            operations.append(.remove(path: JSONPointer(tokens: ["no such member", "x"])))
            let original = a.serialized()
            var document = a
            do {
                try JSONPatch(operations).apply(to: &document)
            } catch {
                rolledBack += 1
            }
            guard document.serialized() == original else {
                Issue.record("not restored:\n\(original)\n\(document)")
                return
            }
        }
        #expect(rolledBack == 2_000)
    }
}
