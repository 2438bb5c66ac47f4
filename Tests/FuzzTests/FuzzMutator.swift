import RewindWire

/// Turns corpus entries into new inputs: byte flips, interesting bytes, token insertions, deletions, truncations,
/// repeats, splices of two entries, deep nesting, and structure-aware mutations of the parsed document (a value
/// replaced, removed or made huge, then serialized again).
///
/// Threading: a value type; each fuzzing pass owns its own.
struct FuzzMutator {
    /// The generator every choice comes from.
    var random: SplitMix64
    /// The inputs mutations start from and splice in.
    let seeds: [[UInt8]]

    /// Bytes and byte sequences that tend to reach unusual paths of a JSON parser: structure, escapes, lone
    /// surrogates, overlong and truncated UTF-8, huge and odd numbers, duplicate keys, protocol type names.
    static let tokens: [[UInt8]] = [
        "{", "}", "[", "]", "\"", ",", ":", "\\", "\\u", "\\ud800", "\\udc00", "\\ud83d\\ude00", "\\u0000",
        "null", "true", "false", "-", "0", "-0", "1e400", "-1e400", "1e-400", "99999999999999999999999",
        "9223372036854775808", "-9223372036854775809", "0.", ".5", "1e", "01", "NaN", "Infinity",
        "\"type\":\"action\",", "\"seq\":1,", "\"a\":1,\"a\":2,", "\"path\":\"/~2\"", "\"path\":\"/-\"",
        "\"op\":\"move\",\"from\":\"\",", "\"protocol\":1,", "{\"op\":\"test\",\"path\":\"\",\"value\":null}",
    ].map { Array($0.utf8) } + [
        [0x00], [0x7F], [0x80], [0xBF], [0xC0, 0x80], [0xC2], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80],
        [0xEF, 0xBB, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0xFF], [0x09], [0x0A],
    ]

    /// A mutator over `seeds`, seeded with `seed`.
    init(seeds: [[UInt8]], seed: UInt64) {
        self.seeds = seeds
        random = SplitMix64(seed: seed)
    }

    /// A new input: a random seed with one to four mutations stacked on it (one in half the inputs, so that
    /// many still get past the first checks and reach the decoders and patch apply).
    mutating func next() -> [UInt8] {
        var input = seeds[Int.random(in: 0..<seeds.count, using: &random)]
        let stacked = [1, 1, 1, 1, 2, 2, 3, 4].randomElement(using: &random)!
        for _ in 0..<stacked {
            mutate(&input)
        }
        return input
    }

    private mutating func index(in bytes: [UInt8], end: Bool = true) -> Int {
        let upper = end ? bytes.count : max(bytes.count - 1, 0)
        return Int.random(in: 0...upper, using: &random)
    }

    private mutating func mutate(_ input: inout [UInt8]) {
        switch Int.random(in: 0..<11, using: &random) {
        case 0 where !input.isEmpty:  // flip one bit
            let i = index(in: input, end: false)
            input[i] ^= 1 << UInt8.random(in: 0..<8, using: &random)
        case 1 where !input.isEmpty:  // an interesting byte in place of another
            let token = Self.tokens.randomElement(using: &random)!
            input[index(in: input, end: false)] = token[0]
        case 2, 3:  // insert a token
            input.insert(contentsOf: Self.tokens.randomElement(using: &random)!, at: index(in: input))
        case 4 where !input.isEmpty:  // delete a range
            let start = index(in: input, end: false)
            let end = min(input.count, start + Int.random(in: 1...16, using: &random))
            input.removeSubrange(start..<end)
        case 5:  // truncate, as a frame cut mid-message
            input.removeSubrange(index(in: input)...)
        case 6 where !input.isEmpty:  // repeat a range
            let start = index(in: input, end: false)
            let end = min(input.count, start + Int.random(in: 1...32, using: &random))
            let piece = Array(input[start..<end])
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                input.insert(contentsOf: piece, at: start)
            }
        case 7:  // splice: a prefix of this input and a suffix of another seed
            let other = seeds.randomElement(using: &random)!
            input = Array(input[..<index(in: input)]) + Array(other[index(in: other)...])
        case 8:  // deep nesting around the input, at and around the depth limit, and far past it
            let depth = [2, 64, 511, 512, 513, 5_000, 100_000].randomElement(using: &random)!
            let (open, close): (UInt8, UInt8) = Bool.random(using: &random) ? (0x5B, 0x5D) : (0x7B, 0x7D)
            if open == 0x5B {
                input = [UInt8](repeating: open, count: depth) + input + [UInt8](repeating: close, count: depth)
            } else {  // {"a":{"a":…input…}}
                input = Array(repeating: Array(#"{"a":"#.utf8), count: depth).flatMap { $0 } + input
                    + [UInt8](repeating: close, count: depth)
            }
        default:  // structure-aware: change the parsed document, serialize it again
            guard var value = try? JSONValue(parsing: input) else {
                input.insert(contentsOf: Self.tokens.randomElement(using: &random)!, at: index(in: input))
                return
            }
            mutateTree(&value, depth: 0)
            input = value.serializedBytes()
        }
    }

    private mutating func mutateTree(_ value: inout JSONValue, depth: Int) {
        let descend = depth < 64 && Int.random(in: 0..<3, using: &random) != 0
        switch value {
        case .array(var items) where descend && !items.isEmpty:
            let i = Int.random(in: 0..<items.count, using: &random)
            if Int.random(in: 0..<4, using: &random) == 0 {
                items.remove(at: i)
            } else {
                mutateTree(&items[i], depth: depth + 1)
            }
            value = .array(items)
        case .object(var object) where descend && !object.isEmpty:
            let position = Int.random(in: 0..<object.count, using: &random)
            if Int.random(in: 0..<4, using: &random) == 0 {
                _ = object.remove(at: position)
            } else {
                var member = object[position].value
                mutateTree(&member, depth: depth + 1)
                object[object[position].key] = member
            }
            value = .object(object)
        default:
            value = randomValue(depth: 0)
        }
    }

    private mutating func randomValue(depth: Int) -> JSONValue {
        switch Int.random(in: 0..<12, using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .int([0, 1, -1, .max, .min, Int64.random(in: -1_000...1_000, using: &random)]
            .randomElement(using: &random)!)
        case 3: return .double([0.5, -0.0, 1e308, .leastNonzeroMagnitude, .greatestFiniteMagnitude, Double.random(in: -1e6...1e6,
                                                                                              using: &random)]
            .randomElement(using: &random)!)
        case 4: return .string(["", "type", "action", "/", "~", "~0~1", "-", "\u{0}", "é😀", "\\\"",
                                String(repeating: "x", count: 10_000)].randomElement(using: &random)!)
        case 5: return .string(["0", "1", "-", "/a", "/a/b", "", "/0/0", "/~1", "/count"].randomElement(using: &random)!)
        case 6 where depth < 4:
            return .array((0..<Int.random(in: 0...4, using: &random)).map { _ in randomValue(depth: depth + 1) })
        case 7 where depth < 4:
            var object = JSONObject()
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                let key = ["type", "seq", "op", "path", "from", "value", "state", "patch", "id", "a"]
                    .randomElement(using: &random)!
                object[key] = randomValue(depth: depth + 1)
            }
            return .object(object)
        case 8:  // a patch operation
            var object = JSONObject()
            object["op"] = .string(["add", "remove", "replace", "move", "copy", "test", "nope"]
                .randomElement(using: &random)!)
            object["path"] = randomValue(depth: 4)
            if Bool.random(using: &random) { object["from"] = randomValue(depth: 4) }
            if Bool.random(using: &random) { object["value"] = randomValue(depth: 3) }
            return .object(object)
        default:
            return .int(Int64.random(in: 0...20, using: &random))
        }
    }
}
