import Testing
import RewindWire

@Suite("Parsing JSON text")
struct JSONParsingTests {
    @Test("scalars parse to the right kinds, integers exactly")
    func scalars() throws {
        #expect(try JSONValue(parsing: "null") == .null)
        #expect(try JSONValue(parsing: "true") == .bool(true))
        #expect(try JSONValue(parsing: " false ") == .bool(false))
        #expect(try JSONValue(parsing: "42") == .int(42))
        #expect(try JSONValue(parsing: "-7") == .int(-7))
        #expect(try JSONValue(parsing: "9223372036854775807") == .int(.max))
        #expect(try JSONValue(parsing: "-9223372036854775808") == .int(.min))
        #expect(try JSONValue(parsing: "9007199254740993") == .int(9_007_199_254_740_993))
        #expect(try JSONValue(parsing: "1.5") == .double(1.5))
        #expect(try JSONValue(parsing: "1.0") == .double(1.0))
        #expect(try JSONValue(parsing: "1e3") == .double(1000))
        #expect(try JSONValue(parsing: "-2.5E-3") == .double(-0.0025))
        #expect(try JSONValue(parsing: "\"hi\"") == .string("hi"))
    }

    @Test("integers beyond Int64 become the nearest double; -0 is a double")
    func bigIntegers() throws {
        #expect(try JSONValue(parsing: "9223372036854775808") == .double(9_223_372_036_854_775_808.0))
        #expect(try JSONValue(parsing: "-9223372036854775809") == .double(-9_223_372_036_854_775_809.0))
        let negativeZero = try JSONValue(parsing: "-0")
        guard case .double(let d) = negativeZero else { Issue.record("expected a double"); return }
        #expect(d == 0 && d.sign == .minus)
    }

    @Test("int and double of the same value are different values")
    func kindsDiffer() throws {
        #expect(try JSONValue(parsing: "1") != JSONValue(parsing: "1.0"))
        #expect(JSONValue.int(1).isNumericallyEqual(to: .double(1.0)))
    }

    @Test("objects keep key order; a repeated key keeps its first position and last value")
    func objectOrder() throws {
        let v = try JSONValue(parsing: #"{"b":1,"a":2,"c":3,"a":4}"#)
        #expect(v.objectValue?.keys == ["b", "a", "c"])
        #expect(v["a"] == .int(4))
        #expect(v.serialized() == #"{"b":1,"a":4,"c":3}"#)
    }

    @Test("objects in a row with the same, fewer, other, repeated or escaped keys each keep their own keys")
    func keySequences() throws {
        let text = #"""
        [{"a":1,"b":2,"c":3},{"a":4,"b":5,"c":6},{"a":7,"b":8},{"a":9,"b":10,"c":11},{"c":1,"a":2},
         {"a":1,"a":2,"b":3},{"\u0061":1,"b":2,"c":3},{"a":1,"b":2,"c":3,"d":4},{"é":1,"a\"b":2},{}]
        """#
        let v = try JSONValue(parsing: text)
        let keys = try #require(v.arrayValue).map { $0.objectValue?.keys ?? [] }
        #expect(keys == [["a", "b", "c"], ["a", "b", "c"], ["a", "b"], ["a", "b", "c"], ["c", "a"],
                         ["a", "b"], ["a", "b", "c"], ["a", "b", "c", "d"], ["é", "a\"b"], []])
        #expect(v[5]?["a"] == 2)
        #expect(v[3] == ["a": 9, "b": 10, "c": 11])
        #expect(v[6] == ["a": 1, "b": 2, "c": 3])
    }

    @Test("objects of several shapes alternating at one depth each keep their own keys and values")
    func alternatingShapes() throws {
        let text = #"""
        [{"x":{"a":1,"b":2}},{"x":{"op":"replace","path":"/n"}},{"x":{"a":3,"b":4}},{"x":{"op":"add"}},
         {"x":{"a":5,"c":6}},{"x":{"k1":1}},{"x":{"k2":2}},{"x":{"k3":3}},{"x":{"k4":4}},{"x":{"a":7,"b":8}},
         {"x":{"op":"remove","path":"/m","from":"/z"}},{"x":{"b":9,"a":10}},{"x":{"a":1,"a":2}}]
        """#
        let v = try JSONValue(parsing: text)
        let keys = try #require(v.arrayValue).map { $0["x"]?.objectValue?.keys ?? [] }
        #expect(keys == [["a", "b"], ["op", "path"], ["a", "b"], ["op"], ["a", "c"], ["k1"], ["k2"], ["k3"], ["k4"],
                         ["a", "b"], ["op", "path", "from"], ["b", "a"], ["a"]])
        #expect(v[2]?["x"] == ["a": 3, "b": 4])
        #expect(v[10]?["x"] == ["op": "remove", "path": "/m", "from": "/z"])
        #expect(v[11]?["x"] == ["b": 9, "a": 10])
        #expect(v[12]?["x"] == ["a": 2])
    }

    @Test("string escapes decode, including surrogate pairs")
    func escapes() throws {
        let v = try JSONValue(parsing: #""a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00""#)
        #expect(v == .string("a\"b\\c/d\u{8}\u{c}\n\r\té😀"))
        #expect(try JSONValue(parsing: "\"héllo wörld 😀\"") == .string("héllo wörld 😀"))
    }

    @Test("a document round-trips byte for byte modulo whitespace")
    func roundTrip() throws {
        let text = #"{"name":"Ada","n":[1,-2,3.25,1.0e-05,true,false,null],"nested":{"z":{},"y":[],"é":"\n\u0001"},"big":1e+300}"#
        let v = try JSONValue(parsing: text)
        let compact = v.serialized()
        #expect(try JSONValue(parsing: compact) == v)
        // Canonical text (what the serializer writes) comes back identical.
        #expect(try JSONValue(parsing: compact).serialized() == compact)
        let spaced = "{ \"a\" : [ 1 , 2.5 , \"x\" ] ,\n\t\"b\" : { \"c\" : null } }"
        #expect(try JSONValue(parsing: spaced).serialized() == #"{"a":[1,2.5,"x"],"b":{"c":null}}"#)
    }

    @Test("doubles serialize so that they read back as doubles with the same value")
    func doubleRoundTrip() throws {
        for d in [0.1, 1.0, -0.0, 1e-7, 123456789.125, 1e21, Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude, 100000.0] {
            let text = JSONValue.double(d).serialized()
            #expect(try JSONValue(parsing: text) == .double(d), "\(text)")
        }
        #expect(JSONValue.double(.nan).serialized() == "null")
        #expect(JSONValue.double(.infinity).serialized() == "null")
    }

    @Test("control characters are escaped on output")
    func controlEscapes() {
        #expect(JSONValue.string("a\u{1}\u{1f}\"\\/").serialized() == #""a\u0001\u001f\"\\/""#)
    }

    @Test("pretty printing indents and keeps order")
    func pretty() throws {
        let v = try JSONValue(parsing: #"{"b":[1,{}],"a":[]}"#)
        #expect(v.prettyPrinted() == "{\n  \"b\": [\n    1,\n    {}\n  ],\n  \"a\": []\n}")
        #expect(try JSONValue(parsing: v.prettyPrinted(indent: 4)) == v)
    }

    @Test("a byte-order mark is skipped")
    func bom() throws {
        #expect(try JSONValue(parsing: [0xEF, 0xBB, 0xBF] + Array("[1]".utf8)) == [1])
    }
}

@Suite("Rejecting bad JSON")
struct JSONParseErrorTests {
    private func failure(_ text: String, limits: JSONLimits = .default) -> JSONParseError? {
        do {
            _ = try JSONValue(parsing: text, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    private func failure(bytes: [UInt8]) -> JSONParseError? {
        do {
            _ = try JSONValue(parsing: bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test("malformed documents say where and what", arguments: [
        ("", 0, "unexpected end of input"),
        ("[1,]", 3, "expected a value"),
        ("{\"a\" 1}", 5, "expected ':'"),
        ("{\"a\":1,}", 7, "expected a string key"),
        ("[1 2]", 3, "expected ','"),
        ("01", 0, "leading zeros"),
        ("1.", 2, "after '.'"),
        ("1e", 2, "exponent"),
        ("-", 1, "expected a digit"),
        ("tru", 0, "expected 'true'"),
        ("\"abc", 0, "unterminated string"),
        ("\"a\\x\"", 2, "invalid escape"),
        ("\"\\ud800\"", 1, "unpaired high surrogate"),
        ("\"\\udc00\"", 1, "unpaired low surrogate"),
        ("\"\\u12G4\"", 5, "invalid hex digit"),
        ("[1] x", 4, "after the end of the document"),
        ("{\"a\":1", 6, "unexpected end of input"),
        ("1e999", 0, "outside the range"),
        ("\"a\tb\"", 2, "control character U+0009"),
        ("NaN", 0, "expected a value"),
    ])
    func malformed(text: String, offset: Int, reason: String) {
        let error = failure(text)
        #expect(error?.offset == offset, "\(text): \(String(describing: error))")
        #expect(error?.reason.contains(reason) == true, "\(text): \(String(describing: error))")
        #expect(error?.kind == .syntax)
    }

    @Test("invalid UTF-8 is rejected with the offset of the bad byte", arguments: [
        ([0x22, 0x61, 0xFF, 0x22], 2),             // byte that never occurs
        ([0x22, 0xC0, 0xAF, 0x22], 1),             // overlong
        ([0x22, 0xE2, 0x28, 0xA1, 0x22], 2),       // bad continuation
        ([0x22, 0xED, 0xA0, 0x80, 0x22], 2),       // encoded surrogate
        ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 2), // above U+10FFFF
        ([0x22, 0x5C, 0x6E, 0xE2, 0x82], 3),       // truncated after an escape
    ] as [([UInt8], Int)])
    func invalidUTF8(bytes: [UInt8], offset: Int) {
        let error = failure(bytes: bytes)
        #expect(error?.kind == .invalidUTF8, "\(String(describing: error))")
        #expect(error?.offset == offset, "\(String(describing: error))")
    }

    @Test("nesting beyond the depth limit is an error, not a crash")
    func tooDeep() throws {
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(try JSONValue(parsing: ok).depth == 512)
        let deep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        let error = failure(deep)
        #expect(error?.kind == .tooDeep)
        #expect(error?.offset == 512)
        // A huge nesting attempt fails fast and safely, too.
        let hostile = String(repeating: "{\"a\":", count: 200_000)
        #expect(failure(hostile)?.kind == .tooDeep)
        #expect(failure("[[[1]]]", limits: JSONLimits(maxDepth: 2))?.kind == .tooDeep)
    }

    @Test("documents over the size limit are refused before parsing")
    func tooBig() {
        let error = failure("[1,2,3,4,5]", limits: JSONLimits(maxBytes: 8))
        #expect(error?.kind == .tooBig)
        #expect(error?.description.contains("exceeds the limit of 8 bytes") == true)
    }

    @Test("the checked serializer enforces the same limits")
    func checkedSerializer() throws {
        let deep = try JSONValue(parsing: "[[[[1]]]]")
        #expect(throws: JSONParseError.self) { try deep.serializedBytes(limits: JSONLimits(maxDepth: 3)) }
        #expect(throws: JSONParseError.self) { try deep.serializedBytes(limits: JSONLimits(maxBytes: 4)) }
        #expect(try deep.serializedBytes(limits: .default) == Array("[[[[1]]]]".utf8))
    }
}
