import Testing
import RewindWire

/// ``JSONLimits/replacesLoneSurrogates``: the lenient reading of lone surrogate escapes that imports of files
/// written by JavaScript use; the default (the wire protocol's) stays strict.
@Suite("Parsing lone surrogate escapes")
struct LoneSurrogateParsingTests {
    private func lenient(_ text: String) throws -> (JSONValue, Int) {
        var limits = JSONLimits.default
        limits.replacesLoneSurrogates = true
        var replaced = 0
        let bytes = Array(text.utf8)
        let value = try bytes.withUnsafeBufferPointer { buffer in
            try JSONValue(parsing: buffer, limits: limits, replacedSurrogates: &replaced)
        }
        return (value, replaced)
    }

    @Test("with the option, each lone surrogate escape reads as U+FFFD and is counted; pairs still decode")
    func replaced() throws {
        #expect(try lenient("\"\\ud800\"") == (.string("\u{FFFD}"), 1))
        #expect(try lenient("\"a\\udc00b\"") == (.string("a\u{FFFD}b"), 1))
        // A high surrogate followed by an escape that is not a low one: the second escape is read on its own.
        #expect(try lenient("\"\\ud800\\u0041\"") == (.string("\u{FFFD}A"), 1))
        #expect(try lenient("\"\\ud800\\ud83d\\ude00\"") == (.string("\u{FFFD}😀"), 1))
        #expect(try lenient("{\"\\udfff\": [\"\\ud800x\", \"\\ud83d\\ude00\"]}")
                == (["\u{FFFD}": ["\u{FFFD}x", "😀"]], 2))
        // Raw UTF-8 encoding a surrogate is not JavaScript's doing: still invalid.
        var limits = JSONLimits.default
        limits.replacesLoneSurrogates = true
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: [0x22, 0xED, 0xA0, 0x80, 0x22], limits: limits) }
    }

    @Test("without the option (the default, the wire protocol's) a lone surrogate is refused")
    func strictByDefault() {
        #expect(!JSONLimits.default.replacesLoneSurrogates)
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: "\"\\ud800\"") }
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: "\"\\ud800\\u0041\"") }
    }
}
