// Parsing JSON text into a `JSONValue` and writing it back.

extension JSONValue {
    /// Parses a complete JSON document from UTF-8 bytes.
    ///
    /// Throws a ``JSONParseError`` giving the byte offset and the reason for malformed JSON, invalid UTF-8,
    /// nesting beyond `limits.maxDepth`, or input larger than `limits.maxBytes`. Never traps on bad input.
    /// Threading: pure.
    public init(parsing bytes: [UInt8], limits: JSONLimits = .default) throws(JSONParseError) {
        let result: Result<JSONValue, JSONParseError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(JSONParseError) {
                return .success(try JSONParser.parse(buffer, limits: limits))
            } catch {
                return .failure(error)
            }
        }
        self = try result.get()
    }

    /// Parses a complete JSON document from a string (its UTF-8). See ``init(parsing:limits:)-([UInt8],_)``.
    /// Threading: pure.
    public init(parsing text: String, limits: JSONLimits = .default) throws(JSONParseError) {
        var text = text
        let result: Result<JSONValue, JSONParseError> = text.withUTF8 { buffer in
            do throws(JSONParseError) {
                return .success(try JSONParser.parse(buffer, limits: limits))
            } catch {
                return .failure(error)
            }
        }
        self = try result.get()
    }

    /// Parses a complete JSON document from any contiguous UTF-8 bytes (e.g. a slice of a frame buffer).
    /// Threading: pure.
    public init(parsing buffer: UnsafeBufferPointer<UInt8>, limits: JSONLimits = .default) throws(JSONParseError) {
        self = try JSONParser.parse(buffer, limits: limits)
    }

    /// Parses a complete JSON document from any contiguous UTF-8 bytes, adding to `replacedSurrogates` how many
    /// lone surrogate escapes were read as U+FFFD (only with ``JSONLimits/replacesLoneSurrogates``; otherwise
    /// they fail the parse and the count stays as it was). Threading: pure.
    public init(
        parsing buffer: UnsafeBufferPointer<UInt8>, limits: JSONLimits, replacedSurrogates: inout Int
    ) throws(JSONParseError) {
        self = try JSONParser.parse(buffer, limits: limits, replacedSurrogates: &replacedSurrogates)
    }

    /// Compact JSON text (no whitespace), keys in order. Non-finite doubles are written as `null`.
    /// `parse(serialized())` gives back an equal value with the same number kinds and key order, and text in
    /// this canonical form round-trips byte for byte (modulo whitespace). Other spellings of the same value —
    /// `1E5` or `1.50` for doubles, `\u00e9` or `\/` in strings, repeated keys — come back in canonical form
    /// (`100000.0`, `1.5`, `é`, `/`, the last value of the key). Threading: pure.
    public func serialized() -> String {
        String(decoding: serializedBytes(), as: UTF8.self)
    }

    /// Compact JSON text as UTF-8 bytes. See ``serialized()``. Threading: pure.
    public func serializedBytes() -> [UInt8] {
        var writer = JSONWriter()
        writer.write(self)
        return writer.bytes
    }

    /// Compact JSON bytes, checked against `limits` first: a value nested deeper than `limits.maxDepth`
    /// throws a `.tooDeep` error, output longer than `limits.maxBytes` a `.tooBig` one — so nothing is sent
    /// that the peer's parser would refuse. Threading: pure.
    public func serializedBytes(limits: JSONLimits) throws(JSONParseError) -> [UInt8] {
        if let depth = exceedsDepth(limits.maxDepth) {
            throw JSONParseError(offset: 0, reason: "value nests \(depth) levels deep, over the limit of \(limits.maxDepth)",
                                 kind: .tooDeep)
        }
        let bytes = serializedBytes()
        guard bytes.count <= limits.maxBytes else {
            throw JSONParseError(offset: limits.maxBytes,
                                 reason: "serialized value of \(bytes.count) bytes exceeds the limit of \(limits.maxBytes) bytes",
                                 kind: .tooBig)
        }
        return bytes
    }

    /// Indented JSON text (`indent` spaces per level, `"key": value`, one member or element per line,
    /// empty containers as `{}` / `[]`). Threading: pure.
    public func prettyPrinted(indent: Int = 2) -> String {
        var writer = JSONWriter()
        writer.writePretty(self, indent: max(0, indent), level: 0)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// The nesting depth of this value: 0 for a scalar, 1 for a container of scalars, and so on.
    /// Computed without recursion. Threading: pure.
    public var depth: Int {
        var deepest = 0
        var work: [(JSONValue, Int)] = [(self, 0)]
        while let (value, level) = work.popLast() {
            switch value {
            case .array(let a):
                deepest = max(deepest, level + 1)
                for element in a { work.append((element, level + 1)) }
            case .object(let o):
                deepest = max(deepest, level + 1)
                for element in o.storedValues { work.append((element, level + 1)) }
            default:
                break
            }
        }
        return deepest
    }

    /// The depth when it exceeds `limit`, else nil; stops looking as soon as the limit is crossed.
    private func exceedsDepth(_ limit: Int) -> Int? {
        var work: [(JSONValue, Int)] = [(self, 0)]
        while let (value, level) = work.popLast() {
            switch value {
            case .array(let a):
                if level + 1 > limit { return level + 1 }
                for element in a where element.isContainer { work.append((element, level + 1)) }
            case .object(let o):
                if level + 1 > limit { return level + 1 }
                for element in o.storedValues where element.isContainer { work.append((element, level + 1)) }
            default:
                break
            }
        }
        return nil
    }

    private var isContainer: Bool {
        switch self {
        case .array, .object: return true
        default: return false
        }
    }
}
