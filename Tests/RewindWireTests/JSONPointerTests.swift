import Testing
import RewindWire

@Suite("JSON Pointer (RFC 6901)")
struct JSONPointerTests {
    /// The example document of RFC 6901 §5.
    let document: JSONValue = [
        "foo": ["bar", "baz"], "": 0, "a/b": 1, "c%d": 2, "e^f": 3, "g|h": 4, "i\\j": 5, "k\"l": 6, " ": 7, "m~n": 8,
    ]

    @Test("the RFC 6901 examples resolve", arguments: [
        ("", nil), ("/foo", nil), ("/foo/0", "bar"), ("/", 0), ("/a~1b", 1), ("/c%d", 2), ("/e^f", 3), ("/g|h", 4),
        ("/i\\j", 5), ("/k\"l", 6), ("/ ", 7), ("/m~0n", 8),
    ] as [(String, JSONValue?)])
    func rfcExamples(text: String, expected: JSONValue?) throws {
        let pointer = try JSONPointer(text)
        #expect(pointer.description == text)
        switch text {
        case "": #expect(document[pointer] == document)
        case "/foo": #expect(document[pointer] == ["bar", "baz"])
        default: #expect(document[pointer] == expected)
        }
    }

    @Test("escaping round-trips through tokens")
    func escaping() throws {
        let pointer = JSONPointer(tokens: ["a/b", "~", "~1", "", "x"])
        #expect(pointer.description == "/a~1b/~0/~01//x")
        #expect(try JSONPointer(pointer.description) == pointer)
        #expect(try JSONPointer("/~01").tokens == ["~1"])
        #expect(try JSONPointer("/foo/").tokens == ["foo", ""])
    }

    @Test("malformed pointers are rejected", arguments: ["foo", "/a~", "/a~2", "#/a"])
    func malformed(text: String) {
        #expect(throws: JSONPointerError.self) { try JSONPointer(text) }
    }

    @Test("array indices must be plain decimal numbers")
    func indices() {
        #expect(JSONPointer.arrayIndex("0") == 0)
        #expect(JSONPointer.arrayIndex("12") == 12)
        for bad in ["01", "-1", "1e0", "", "-", "+1", " 1", "1.0"] { #expect(JSONPointer.arrayIndex(bad) == nil, "\(bad)") }
        let array: JSONValue = ["a", "b"]
        #expect(array[JSONPointer(tokens: ["01"])] == nil)
        #expect(array[JSONPointer(tokens: ["2"])] == nil)
        #expect(array[JSONPointer(tokens: ["1"])] == "b")
    }

    @Test("prefix and parent relations")
    func relations() throws {
        let a = try JSONPointer("/a"), ab = try JSONPointer("/a/b")
        #expect(a.isPrefix(of: ab))
        #expect(!ab.isPrefix(of: a))
        #expect(JSONPointer.root.isPrefix(of: a))
        #expect(ab.parent == a)
        #expect(JSONPointer.root.parent == nil)
        #expect(a.appending("b") == ab)
    }
}
