/// A strict RFC 8259 parser over UTF-8 bytes, iterative (an explicit stack instead of recursion) so that
/// nesting can never overflow the call stack.
///
/// Accepts an optional UTF-8 byte-order mark. Rejects: invalid UTF-8 (overlong forms, surrogates, code points
/// above U+10FFFF, truncated sequences), unescaped control characters in strings, unpaired surrogate escapes,
/// leading zeros, numbers outside the range of `Double`, trailing data. With
/// ``JSONLimits/replacesLoneSurrogates`` an unpaired surrogate escape is read as U+FFFD instead (and counted).
///
/// Threading: a value used by one thread for one parse.
struct JSONParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let limits: JSONLimits
    private var pos = 0
    /// Values read so far (bounded by `limits.maxValues`).
    private var valueCount = 0
    private let maxValues: Int
    /// Lone surrogate escapes read as U+FFFD (only with `limits.replacesLoneSurrogates`).
    private(set) var replacedSurrogates = 0

    private struct Frame {
        var isObject: Bool
        /// Keys read so far — only once the object stopped following its depth's template.
        var keys: [String] = []
        var values: [JSONValue] = []
        /// While true, the keys read so far are `templates[depth][template][0..<cursor]`.
        var following = true
        var template = 0
        var cursor = 0
    }

    /// How many key lists each depth remembers.
    private static let templatesPerDepth = 4

    /// Per nesting depth: the keys of the last few objects of different shapes closed there, the most recently
    /// used first. Objects at one depth usually have one of a few shapes (elements of an array of structs; in a
    /// protocol message, an action's payload beside a patch operation); while an object follows one of them, its
    /// keys reuse the template's strings and array (no string creation, no allocation, no duplicate search).
    private var templates: [[[String]]] = []
    /// Per nesting depth: the element count of the last container closed there (to size the next one).
    private var lastCounts: [Int] = []

    private init(bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits) {
        self.bytes = bytes
        self.limits = limits
        self.maxValues = limits.maxValues
    }

    /// Parses one complete document.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits) throws(JSONParseError) -> JSONValue {
        var replaced = 0
        return try parse(bytes, limits: limits, replacedSurrogates: &replaced)
    }

    /// Parses one complete document; adds to `replacedSurrogates` the lone surrogate escapes read as U+FFFD.
    static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits, replacedSurrogates: inout Int
    ) throws(JSONParseError) -> JSONValue {
        guard bytes.count <= limits.maxBytes else {
            throw JSONParseError(
                offset: limits.maxBytes,
                reason: "document of \(bytes.count) bytes exceeds the limit of \(limits.maxBytes) bytes",
                kind: .tooBig)
        }
        var parser = JSONParser(bytes: bytes, limits: limits)
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { parser.pos = 3 }
        let value = try parser.parseValue()
        parser.skipWhitespace()
        if parser.pos < bytes.count {
            throw parser.error("unexpected \(parser.describeByte(at: parser.pos)) after the end of the document")
        }
        replacedSurrogates += parser.replacedSurrogates
        return value
    }

    // MARK: Errors

    private func error(_ reason: String, at offset: Int? = nil, kind: JSONParseError.Kind = .syntax) -> JSONParseError {
        JSONParseError(offset: offset ?? pos, reason: reason, kind: kind)
    }

    private func describeByte(at offset: Int) -> String {
        guard offset < bytes.count else { return "end of input" }
        let b = bytes[offset]
        if b >= 0x21 && b < 0x7F { return "character '\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x\(String(b, radix: 16, uppercase: true))"
    }

    // MARK: Structure

    @inline(__always)
    private mutating func skipWhitespace() {
        while pos < bytes.count {
            let b = bytes[pos]
            guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { return }
            pos += 1
        }
    }

    /// Reads `"key"` then `:`; leaves `pos` after the colon. When the key's bytes equal `candidate`, returns
    /// `candidate` itself (no new string) and `true`.
    private mutating func parseKey(candidate: String?) throws(JSONParseError) -> (String, Bool) {
        skipWhitespace()
        guard pos < bytes.count, bytes[pos] == UInt8(ascii: "\"") else {
            throw error("expected a string key, found \(describeByte(at: pos))")
        }
        // Fast path: a plain ASCII key without escapes.
        var end = pos + 1
        while end < bytes.count {
            let b = bytes[end]
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b < 0x20 || b >= 0x80 { break }
            end += 1
        }
        let key: String
        let matched: Bool
        if end < bytes.count && bytes[end] == UInt8(ascii: "\"") {
            let start = pos + 1
            if let candidate, equals(candidate, start, end) {
                key = candidate
                matched = true
            } else {
                key = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
                matched = false
            }
            pos = end + 1
        } else {
            key = try parseString()
            matched = key == candidate
        }
        skipWhitespace()
        guard pos < bytes.count, bytes[pos] == UInt8(ascii: ":") else {
            throw error("expected ':' after an object key, found \(describeByte(at: pos))")
        }
        pos += 1
        return (key, matched)
    }

    /// True when `bytes[start..<end]` is the UTF-8 of `string`.
    @inline(__always)
    private func equals(_ string: String, _ start: Int, _ end: Int) -> Bool {
        var string = string
        return string.withUTF8 { utf8 in
            guard utf8.count == end - start else { return false }
            for i in 0..<utf8.count where utf8[i] != bytes[start + i] { return false }
            return true
        }
    }

    /// The key the object on top of the stack would read next if it follows its template.
    private func candidate(for frame: Frame, depth: Int) -> String? {
        guard frame.following, depth < templates.count, frame.template < templates[depth].count else { return nil }
        let template = templates[depth][frame.template]
        return frame.cursor < template.count ? template[frame.cursor] : nil
    }

    /// Opens a container at `depth`, sized like the last one closed there.
    private mutating func openFrame(isObject: Bool, depth: Int) -> Frame {
        var frame = Frame(isObject: isObject)
        while lastCounts.count <= depth { lastCounts.append(0) }
        if lastCounts[depth] > 0 { frame.values.reserveCapacity(lastCounts[depth]) }
        if isObject { while templates.count <= depth { templates.append([]) } }
        return frame
    }

    /// Records a key read by the object on top of the stack.
    @inline(__always)
    private mutating func addKey(_ key: String, matched: Bool, to frame: inout Frame, depth: Int) {
        if frame.following {
            if matched {
                frame.cursor += 1
                return
            }
            if frame.cursor == 0, depth < templates.count {
                // The first key did not match the most recent template: another shape seen at this depth?
                let known = templates[depth]
                var index = 1
                while index < known.count {
                    if known[index][0] == key {
                        frame.template = index
                        frame.cursor = 1
                        return
                    }
                    index += 1
                }
            }
            frame.following = false
            frame.keys = frame.cursor == 0 ? [] : Array(templates[depth][frame.template][0..<frame.cursor])
        }
        frame.keys.append(key)
    }

    /// Closes the container on top of the stack.
    private mutating func closeFrame(_ frame: Frame, depth: Int) -> JSONValue {
        lastCounts[depth] = frame.values.count
        guard frame.isObject else { return .array(frame.values) }
        if frame.following {
            let template = templates[depth][frame.template]
            if frame.template != 0 {
                templates[depth].remove(at: frame.template)
                templates[depth].insert(template, at: 0)
            }
            let keys = frame.cursor == template.count ? template : Array(template[0..<frame.cursor])
            return .object(JSONObject(uniqueKeys: keys, values: frame.values))
        }
        let object = JSONObject(keys: frame.keys, values: frame.values)
        templates[depth].insert(object.keys, at: 0)
        if templates[depth].count > JSONParser.templatesPerDepth { templates[depth].removeLast() }
        return .object(object)
    }

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        var stack: [Frame] = []
        var pendingKeys: [(String, Bool)] = []   // the key awaiting its value (and whether it followed the template)
        while true {
            // Read one value (a scalar, an empty container, or the opening of a container).
            skipWhitespace()
            guard pos < bytes.count else { throw error("unexpected end of input, expected a value") }
            valueCount += 1
            guard valueCount <= maxValues else {
                throw error("more than \(maxValues) values (the limit of values in one document)", kind: .tooBig)
            }
            var value: JSONValue
            switch bytes[pos] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = bytes[pos] == UInt8(ascii: "{")
                guard stack.count < limits.maxDepth else {
                    throw error("nesting deeper than the limit of \(limits.maxDepth)", kind: .tooDeep)
                }
                pos += 1
                skipWhitespace()
                if pos < bytes.count, bytes[pos] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    pos += 1
                    value = isObject ? .object(JSONObject()) : .array([])
                } else {
                    let frame = openFrame(isObject: isObject, depth: stack.count)
                    if isObject { pendingKeys.append(try parseKey(candidate: candidate(for: frame, depth: stack.count))) }
                    stack.append(frame)
                    continue
                }
            case UInt8(ascii: "\""):
                value = .string(try parseString())
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = try parseNumber()
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                value = .null
            default:
                throw error("unexpected \(describeByte(at: pos)), expected a value")
            }

            // Attach the value to the enclosing containers, closing those that end here.
            while true {
                guard !stack.isEmpty else { return value }
                let top = stack.count - 1
                let isObject = stack[top].isObject
                if isObject {
                    let (key, matched) = pendingKeys.removeLast()
                    addKey(key, matched: matched, to: &stack[top], depth: top)
                }
                stack[top].values.append(value)
                skipWhitespace()
                guard pos < bytes.count else {
                    throw error("unexpected end of input, expected ',' or '\(isObject ? "}" : "]")'")
                }
                let b = bytes[pos]
                if b == UInt8(ascii: ",") {
                    pos += 1
                    if isObject { pendingKeys.append(try parseKey(candidate: candidate(for: stack[top], depth: top))) }
                    break
                }
                guard b == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                    throw error("expected ',' or '\(isObject ? "}" : "]")', found \(describeByte(at: pos))")
                }
                pos += 1
                let frame = stack.removeLast()
                value = closeFrame(frame, depth: top)
            }
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let n = literal.utf8CodeUnitCount
        let start = literal.utf8Start
        for i in 0..<n {
            guard pos + i < bytes.count, bytes[pos + i] == start[i] else {
                throw error("invalid literal, expected '\(literal)'", at: pos)
            }
        }
        pos += n
    }

    // MARK: Numbers

    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = pos
        var negative = false
        if bytes[pos] == UInt8(ascii: "-") {
            negative = true
            pos += 1
        }
        guard pos < bytes.count, isDigit(bytes[pos]) else {
            throw error("invalid number: expected a digit after '-'")
        }
        let intStart = pos
        if bytes[pos] == UInt8(ascii: "0") {
            pos += 1
            if pos < bytes.count, isDigit(bytes[pos]) {
                throw error("invalid number: leading zeros are not allowed", at: intStart)
            }
        } else {
            while pos < bytes.count, isDigit(bytes[pos]) { pos += 1 }
        }
        let intEnd = pos
        var isInteger = true
        if pos < bytes.count, bytes[pos] == UInt8(ascii: ".") {
            isInteger = false
            pos += 1
            guard pos < bytes.count, isDigit(bytes[pos]) else {
                throw error("invalid number: expected a digit after '.'")
            }
            while pos < bytes.count, isDigit(bytes[pos]) { pos += 1 }
        }
        if pos < bytes.count, bytes[pos] == UInt8(ascii: "e") || bytes[pos] == UInt8(ascii: "E") {
            isInteger = false
            pos += 1
            if pos < bytes.count, bytes[pos] == UInt8(ascii: "+") || bytes[pos] == UInt8(ascii: "-") { pos += 1 }
            guard pos < bytes.count, isDigit(bytes[pos]) else {
                throw error("invalid number: expected a digit in the exponent")
            }
            while pos < bytes.count, isDigit(bytes[pos]) { pos += 1 }
        }
        if isInteger {
            if intEnd - intStart <= 18 {
                // At most 18 digits always fits in Int64: no overflow checks needed.
                var v: Int64 = 0
                for i in intStart..<intEnd { v = v * 10 + Int64(bytes[i] &- 48) }
                if negative {
                    if v == 0 { return .double(-0.0) }
                    return .int(-v)
                }
                return .int(v)
            }
            var v: Int64 = 0
            var overflow = false
            for i in intStart..<intEnd {
                let digit = Int64(bytes[i] &- 48)
                let (m, o1) = v.multipliedReportingOverflow(by: 10)
                let (s, o2) = negative ? m.subtractingReportingOverflow(digit) : m.addingReportingOverflow(digit)
                if o1 || o2 { overflow = true; break }
                v = s
            }
            if !overflow { return .int(v) }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<pos]), as: UTF8.self)
        guard let d = Double(text), d.isFinite else {
            throw error("number \(text) is outside the range of a double", at: start)
        }
        return .double(d)
    }

    @inline(__always)
    private func isDigit(_ b: UInt8) -> Bool { b &- 48 < 10 }

    // MARK: Strings

    /// Parses a string starting at the opening quote; leaves `pos` after the closing quote.
    private mutating func parseString() throws(JSONParseError) -> String {
        let open = pos
        pos += 1
        let start = pos
        // Fast path: no escapes.
        while pos < bytes.count {
            let b = bytes[pos]
            if b == UInt8(ascii: "\"") {
                let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<pos]), as: UTF8.self)
                pos += 1
                return s
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 { throw controlCharacterError(b) }
            if b < 0x80 {
                pos += 1
            } else {
                pos += try validateUTF8Sequence(at: pos)
            }
        }
        guard pos < bytes.count else { throw error("unterminated string", at: open) }
        // Slow path: copy what was scanned, then decode escapes.
        var buffer = [UInt8](UnsafeBufferPointer(rebasing: bytes[start..<pos]))
        while pos < bytes.count {
            let b = bytes[pos]
            if b == UInt8(ascii: "\"") {
                pos += 1
                return String(decoding: buffer, as: UTF8.self)
            }
            if b == UInt8(ascii: "\\") {
                try parseEscape(into: &buffer)
            } else if b < 0x20 {
                throw controlCharacterError(b)
            } else if b < 0x80 {
                buffer.append(b)
                pos += 1
            } else {
                let n = try validateUTF8Sequence(at: pos)
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[pos..<pos + n]))
                pos += n
            }
        }
        throw error("unterminated string", at: open)
    }

    private func controlCharacterError(_ b: UInt8) -> JSONParseError {
        let hex = String(b, radix: 16, uppercase: true)
        return error("control character U+\(String(repeating: "0", count: 4 - hex.count))\(hex) must be escaped in a string")
    }

    /// Decodes one escape sequence at `pos` (the backslash) and appends its UTF-8.
    private mutating func parseEscape(into buffer: inout [UInt8]) throws(JSONParseError) {
        let escapeStart = pos
        guard pos + 1 < bytes.count else { throw error("unterminated escape sequence") }
        let c = bytes[pos + 1]
        pos += 2
        switch c {
        case UInt8(ascii: "\""): buffer.append(0x22)
        case UInt8(ascii: "\\"): buffer.append(0x5C)
        case UInt8(ascii: "/"): buffer.append(0x2F)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try readHex4()
            if scalar >= 0xD800 && scalar < 0xDC00 {
                guard pos + 1 < bytes.count, bytes[pos] == UInt8(ascii: "\\"), bytes[pos + 1] == UInt8(ascii: "u") else {
                    guard limits.replacesLoneSurrogates else {
                        throw error("unpaired high surrogate in \\u escape", at: escapeStart)
                    }
                    replaceLoneSurrogate(in: &buffer)
                    return
                }
                let next = pos
                pos += 2
                let low = try readHex4()
                guard low >= 0xDC00 && low < 0xE000 else {
                    guard limits.replacesLoneSurrogates else {
                        throw error("high surrogate not followed by a low surrogate in \\u escape", at: escapeStart)
                    }
                    // The next escape is read on its own (it may start a pair itself).
                    pos = next
                    replaceLoneSurrogate(in: &buffer)
                    return
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if scalar >= 0xDC00 && scalar < 0xE000 {
                guard limits.replacesLoneSurrogates else {
                    throw error("unpaired low surrogate in \\u escape", at: escapeStart)
                }
                replaceLoneSurrogate(in: &buffer)
                return
            }
            appendUTF8(scalar, to: &buffer)
        default:
            throw error("invalid escape sequence '\\\(describeEscape(c))'", at: escapeStart)
        }
    }

    /// Appends U+FFFD for a lone surrogate escape and counts it.
    private mutating func replaceLoneSurrogate(in buffer: inout [UInt8]) {
        appendUTF8(0xFFFD, to: &buffer)
        replacedSurrogates += 1
    }

    private func describeEscape(_ c: UInt8) -> String {
        c >= 0x21 && c < 0x7F ? String(Character(Unicode.Scalar(c))) : "0x\(String(c, radix: 16, uppercase: true))"
    }

    private mutating func readHex4() throws(JSONParseError) -> UInt32 {
        guard pos + 4 <= bytes.count else { throw error("unterminated \\u escape") }
        var v: UInt32 = 0
        for i in 0..<4 {
            let b = bytes[pos + i]
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - 48
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - 87
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - 55
            default: throw error("invalid hex digit in \\u escape", at: pos + i)
            }
            v = v << 4 | UInt32(digit)
        }
        pos += 4
        return v
    }

    private func appendUTF8(_ scalar: UInt32, to buffer: inout [UInt8]) {
        switch scalar {
        case ..<0x80:
            buffer.append(UInt8(scalar))
        case ..<0x800:
            buffer.append(UInt8(0xC0 | scalar >> 6))
            buffer.append(UInt8(0x80 | scalar & 0x3F))
        case ..<0x10000:
            buffer.append(UInt8(0xE0 | scalar >> 12))
            buffer.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            buffer.append(UInt8(0x80 | scalar & 0x3F))
        default:
            buffer.append(UInt8(0xF0 | scalar >> 18))
            buffer.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            buffer.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            buffer.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// Validates the multi-byte UTF-8 sequence starting at `offset` (whose first byte is ≥ 0x80) and returns
    /// its length. Follows the well-formed byte sequences table of the Unicode standard (§3.9, table 3-7).
    private func validateUTF8Sequence(at offset: Int) throws(JSONParseError) -> Int {
        let b0 = bytes[offset]
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF   // allowed range of the second byte
        switch b0 {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default:
            throw error("invalid UTF-8: byte 0x\(String(b0, radix: 16, uppercase: true)) cannot start a character",
                        at: offset, kind: .invalidUTF8)
        }
        guard offset + length <= bytes.count else {
            throw error("invalid UTF-8: truncated multi-byte sequence", at: offset, kind: .invalidUTF8)
        }
        let b1 = bytes[offset + 1]
        guard b1 >= low && b1 <= high else {
            throw error("invalid UTF-8: bad continuation byte 0x\(String(b1, radix: 16, uppercase: true))",
                        at: offset + 1, kind: .invalidUTF8)
        }
        var i = 2
        while i < length {
            let b = bytes[offset + i]
            guard b & 0xC0 == 0x80 else {
                throw error("invalid UTF-8: bad continuation byte 0x\(String(b, radix: 16, uppercase: true))",
                            at: offset + i, kind: .invalidUTF8)
            }
            i += 1
        }
        return length
    }
}
