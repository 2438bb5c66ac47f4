import Foundation
import RewindWire
import Testing

/// Issue 19: the pieces of RewindWire that stand between a hostile peer and the daemon.
@Suite("Hostile values: escaping, tokens, sizes, ranges")
struct HostileValueTests {
    @Test("control characters become visible escapes; other text is returned as it is")
    func terminalText() {
        #expect(TerminalText.escaped("todo app — ✓ 日本") == "todo app — ✓ 日本")
        #expect(TerminalText.escaped("a\u{1B}]0;owned\u{07}b") == #"a\x1B]0;owned\x07b"#)
        #expect(TerminalText.escaped("line\nrewind: forged\r\tx") == #"line\nrewind: forged\r\tx"#)
        #expect(TerminalText.escaped("\u{0}\u{7F}\u{9B}2J") == #"\x00\x7F\x9B2J"#)
        #expect(TerminalText.escaped("abc\u{202E}fed\u{2028}") == #"abc\u{202E}fed\u{2028}"#)
        #expect(TerminalText.escaped(#"back\slash"#) == #"back\slash"#)
        for scalar in TerminalText.escaped("\u{1B}\u{07}\u{9B}\n").unicodeScalars {
            #expect(!TerminalText.needsEscape(scalar))
        }
    }

    @Test("tokens match byte for byte: canonically equivalent spellings, prefixes and nil do not")
    func tokens() {
        #expect(TokenComparison.matches("s3cret", "s3cret"))
        #expect(!TokenComparison.matches("s3cret!", "s3cret"))
        #expect(!TokenComparison.matches("s3cre", "s3cret"))
        #expect(!TokenComparison.matches("", "s3cret"))
        #expect(!TokenComparison.matches(nil, "s3cret"))
        #expect(!TokenComparison.matches("S3cret", "s3cret"))
        // Swift's String == says these are equal (canonical equivalence); the bytes differ.
        let precomposed = "caf\u{E9}", decomposed = "cafe\u{301}"
        #expect(precomposed == decomposed)
        #expect(!TokenComparison.matches(decomposed, precomposed))
        #expect(TokenComparison.matches(precomposed, precomposed))
    }

    @Test("compactSize is the length of the compact JSON for integers, strings, containers and keys")
    func compactSizeIsExact() throws {
        let value = try JSONValue(parsing: #"{"a":[1,-22,333,null,true,false,"x y"],"bb":{"c":{}},"d":[],"e":-9223372036854775808}"#)
        #expect(value.compactSize() == value.serialized().utf8.count)
        #expect(value.compactSize(limit: 10) > 10)
    }

    @Test("compactSize stops at its limit: a document sharing one subtree 2^60 times is measured at once")
    func compactSizeStopsEarly() {
        var document: JSONValue = ["filler": .string(String(repeating: "x", count: 1000))]
        for _ in 0..<60 { document = [document, document] }  // shared storage: cheap to build, 10^21 bytes as JSON
        let started = Date()
        #expect(document.compactSize(limit: 1 << 20) > 1 << 20)
        #expect(Date().timeIntervalSince(started) < 1)
    }

    @Test("a patch applied with a size budget keeps the size exact, and a copy bomb fails with everything restored")
    func patchBudget() throws {
        var document = try JSONValue(parsing: #"{"count":0,"items":["a","b"],"name":"x"}"#)
        var size = document.compactSize()
        let grow = try JSONPatch(json: try JSONValue(parsing:
            #"[{"op":"add","path":"/items/-","value":"ccc"},{"op":"replace","path":"/count","value":12345},"#
            + #"{"op":"remove","path":"/name"},{"op":"copy","from":"/items","path":"/again"},"#
            + #"{"op":"move","from":"/again","path":"/moved"},{"op":"add","path":"/count","value":7}]"#))
        try grow.apply(to: &document, size: &size, maxSize: 1 << 20)
        #expect(size == document.compactSize())

        let before = document, sizeBefore = size
        let copies = (0..<64).map { #"{"op":"copy","from":"","path":"/c\#($0)"}"# }.joined(separator: ",")
        let bomb = try JSONPatch(json: try JSONValue(parsing: "[\(copies)]"))
        let started = Date()
        #expect {
            try bomb.apply(to: &document, size: &size, maxSize: 1 << 20)
        } throws: { error in
            (error as? JSONPatchError)?.reason.contains("the document would grow past the limit of 1048576 bytes") == true
        }
        #expect(Date().timeIntervalSince(started) < 2)
        #expect(document == before)
        #expect(size == sizeBefore)
    }

    @Test("a root replacement counts the new document, and one too large is refused")
    func rootReplacement() throws {
        var document: JSONValue = ["a": 1]
        var size = document.compactSize()
        let big = JSONValue.string(String(repeating: "z", count: 2000))
        #expect(throws: JSONPatchError.self) {
            try JSONPatch([.replace(path: JSONPointer(tokens: []), value: big)]).apply(to: &document, size: &size, maxSize: 1000)
        }
        #expect(document == ["a": 1])
        try JSONPatch([.add(path: JSONPointer(tokens: []), value: [1, 2])]).apply(to: &document, size: &size, maxSize: 1000)
        #expect(size == 5)
    }

    @Test("saturating conversions never trap", arguments: [1e19, 1e300, -1e300, Double.infinity, -Double.infinity, Double.nan, 42.9, -42.9])
    func saturating(value: Double) {
        let int = Int(saturating: value), int64 = Int64(saturating: value), uint = UInt64(saturating: value)
        if value.isNaN {
            #expect(int == 0 && int64 == 0 && uint == 0)
        } else if abs(value) < 100 {
            #expect(int == Int(value.rounded(.towardZero)))
            #expect(uint == (value < 0 ? 0 : UInt64(value)))
        } else {
            #expect(int64 == (value < 0 ? .min : .max))
        }
    }

    @Test("action times and reducer durations outside their ranges are refused naming the field")
    func actionRanges() throws {
        func decode(_ time: String, micros: String = "1") -> WireError? {
            let frame = #"{"type":"action","seq":1,"time":\#(time),"action":{"type":"a"},"patch":[],"reducerMicros":\#(micros)}"#
            do {
                _ = try WireCodec.decodeAppMessage(Array(frame.utf8))
                return nil
            } catch {
                return error
            }
        }
        #expect(decode("0") == nil)
        #expect(decode("253402300799") == nil)
        #expect(decode("1700000000.25", micros: "1e12") == nil)
        for bad in ["1e19", "1e300", "-1", "253402300800", "-0.5"] {
            #expect(decode(bad)?.field == "action.time", "\(bad)")
            #expect(decode(bad)?.code == .badField)
        }
        #expect(decode("1", micros: "1e300")?.field == "action.reducerMicros")
        #expect(decode("1", micros: "-1")?.field == "action.reducerMicros")
    }

    @Test("a document with more values than the limit fails with tooBig, whatever its size in bytes")
    func valueLimit() throws {
        #expect(JSONLimits.default.maxValues == 4_194_304)
        #expect(JSONLimits(maxBytes: 1 << 10).maxValues == 65_536)
        let limits = JSONLimits(maxBytes: 1 << 20, maxValues: 1000)
        let fits = "[" + Array(repeating: "[]", count: 999).joined(separator: ",") + "]"
        #expect(try JSONValue(parsing: Array(fits.utf8), limits: limits).arrayValue?.count == 999)
        let over = "[" + Array(repeating: "[]", count: 1000).joined(separator: ",") + "]"
        #expect {
            try JSONValue(parsing: Array(over.utf8), limits: limits)
        } throws: { error in
            (error as? JSONParseError)?.kind == .tooBig
        }
        let frame = #"{"type":"hello","protocol":1,"app":{"name":"a","instance":"1"},"state":"# + over + "}"
        #expect(throws: WireError.self) { try WireCodec.decodeAppMessage(Array(frame.utf8), limits: limits) }
        do {
            _ = try WireCodec.decodeAppMessage(Array(frame.utf8), limits: limits)
        } catch {
            #expect(error.code == .tooBig)
        }
    }
}
