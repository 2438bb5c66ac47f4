import Testing
import RewindWire

@Suite("Diffing documents into JSON Patch")
struct JSONPatchDiffTests {
    private func checkedDiff(_ a: JSONValue, _ b: JSONValue) throws -> JSONPatch {
        let patch = JSONPatch.diff(from: a, to: b)
        #expect(try patch.apply(to: a) == b, "diff \(a) → \(b) gave \(patch)")
        return patch
    }

    private var state: JSONValue {
        [
            "user": ["name": "Ada", "age": 36, "tags": ["a", "b"]],
            "items": [["id": 1, "done": false], ["id": 2, "done": false], ["id": 3, "done": true], ["id": 4, "done": false]],
            "count": 4,
        ]
    }

    @Test("equal documents give an empty patch")
    func unchanged() throws {
        #expect(try checkedDiff(state, state).isEmpty)
        // Equal but built separately, with keys in another order.
        let reordered: JSONValue = [
            "count": 4,
            "items": [["done": false, "id": 1], ["id": 2, "done": false], ["id": 3, "done": true], ["id": 4, "done": false]],
            "user": ["tags": ["a", "b"], "age": 36, "name": "Ada"],
        ]
        #expect(try checkedDiff(state, reordered).isEmpty)
    }

    @Test("one changed field is one replace at its path")
    func oneField() throws {
        var b = state.objectValue!
        var user = b["user"]!.objectValue!
        user["age"] = 37
        b["user"] = .object(user)
        let patch = try checkedDiff(state, .object(b))
        #expect(patch.operations == [.replace(path: try JSONPointer("/user/age"), value: 37)])
    }

    @Test("one field of one array element is one replace inside that element")
    func elementField() throws {
        var items = state["items"]!.arrayValue!
        items[2] = ["id": 3, "done": false]
        var b = state.objectValue!
        b["items"] = .array(items)
        let patch = try checkedDiff(state, .object(b))
        #expect(patch.operations == [.replace(path: try JSONPointer("/items/2/done"), value: false)])
    }

    @Test("one appended element is one add at its index")
    func append() throws {
        var items = state["items"]!.arrayValue!
        items.append(["id": 5, "done": false])
        var b = state.objectValue!
        b["items"] = .array(items)
        let patch = try checkedDiff(state, .object(b))
        #expect(patch.operations == [.add(path: try JSONPointer("/items/4"), value: ["id": 5, "done": false])])
    }

    @Test("one element removed from the middle is one remove")
    func removeMiddle() throws {
        var items = state["items"]!.arrayValue!
        items.remove(at: 1)
        var b = state.objectValue!
        b["items"] = .array(items)
        let patch = try checkedDiff(state, .object(b))
        #expect(patch.operations == [.remove(path: try JSONPointer("/items/1"))])
    }

    @Test("one element inserted in the middle is one add")
    func insertMiddle() throws {
        let a: JSONValue = [1, 2, 3, 4, 5]
        let patch = try checkedDiff(a, [1, 2, 9, 3, 4, 5])
        #expect(patch.operations == [.add(path: try JSONPointer("/2"), value: 9)])
    }

    @Test("a capped log that drops its head and appends is one remove and one add")
    func shiftingLog() throws {
        let a: JSONValue = .array((0..<50).map { .string("event \($0)") })
        let b: JSONValue = .array((1..<51).map { .string("event \($0)") })
        let patch = try checkedDiff(a, b)
        #expect(patch.operations.count == 2)
    }

    @Test("added and removed keys, kind changes and root changes")
    func assorted() throws {
        #expect(try checkedDiff(["a": 1, "b": 2], ["b": 2, "c": 3]).operations.count == 2)
        #expect(try checkedDiff(["a": 1], ["a": 1.0]).operations == [.replace(path: try JSONPointer("/a"), value: 1.0)])
        #expect(try checkedDiff(1, "x").operations == [.replace(path: .root, value: "x")])
        #expect(try checkedDiff([1], ["a": 1]).operations == [.replace(path: .root, value: ["a": 1])])
        _ = try checkedDiff(["a/b": ["~": 1]], ["a/b": ["~": 2]])
        _ = try checkedDiff([], [1, 2, 3])
        _ = try checkedDiff([1, 2, 3], [])
        _ = try checkedDiff([1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1])
    }

    @Test("arrays too different for the bounded search still diff correctly")
    func largeRewrite() throws {
        let a: JSONValue = .array((0..<3000).map { .int(Int64($0)) })
        let b: JSONValue = .array((0..<2500).map { .int(Int64($0 * 7 % 2999)) })
        _ = try checkedDiff(a, b)
    }
}

/// A small, fast, seeded generator (SplitMix64), so that property tests are reproducible.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random JSON documents and related mutations of them.
struct RandomDocuments {
    var rng: SeededGenerator

    static let keyPool = ["a", "b", "id", "name", "é", "日本", "😀", "a/b", "~", "~1", "/", "", "0", "-", "x y", "key\"q"]

    mutating func key() -> String {
        if Int.random(in: 0..<4, using: &rng) == 0 { return "k\(Int.random(in: 0..<30, using: &rng))" }
        return RandomDocuments.keyPool.randomElement(using: &rng)!
    }

    mutating func scalar() -> JSONValue {
        switch Int.random(in: 0..<7, using: &rng) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2: return .int(Int64.random(in: -1000...1000, using: &rng))
        case 3: return .int(Int64.random(in: .min ... .max, using: &rng))
        case 4: return .double(Double.random(in: -1e6...1e6, using: &rng))
        case 5: return .string(["", "x", "hello", "héllo", "😀", "a\"b", "line\nbreak"].randomElement(using: &rng)!)
        default: return .double(Double(Int.random(in: 0...5, using: &rng)))
        }
    }

    mutating func value(depth: Int) -> JSONValue {
        let roll = Int.random(in: 0..<10, using: &rng)
        if depth <= 0 || roll < 4 { return scalar() }
        if roll < 7 {
            return .array((0..<Int.random(in: 0...6, using: &rng)).map { _ in value(depth: depth - 1) })
        }
        var o = JSONObject()
        for _ in 0..<Int.random(in: 0...6, using: &rng) { o[key()] = value(depth: depth - 1) }
        return .object(o)
    }

    /// A copy of `v` with a few random changes anywhere in it.
    mutating func mutate(_ v: JSONValue, depth: Int) -> JSONValue {
        let roll = Int.random(in: 0..<10, using: &rng)
        if roll == 0 { return value(depth: depth) }
        switch v {
        case .array(var a):
            for _ in 0..<Int.random(in: 0...3, using: &rng) {
                switch Int.random(in: 0..<5, using: &rng) {
                case 0: a.insert(value(depth: depth - 1), at: Int.random(in: 0...a.count, using: &rng))
                case 1: if !a.isEmpty { a.remove(at: Int.random(in: 0..<a.count, using: &rng)) }
                case 2: a.append(value(depth: depth - 1))
                case 3: if a.count > 1 { a.swapAt(0, a.count - 1) }
                default:
                    if !a.isEmpty {
                        let i = Int.random(in: 0..<a.count, using: &rng)
                        a[i] = mutate(a[i], depth: depth - 1)
                    }
                }
            }
            return .array(a)
        case .object(var o):
            for _ in 0..<Int.random(in: 0...3, using: &rng) {
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: o[key()] = value(depth: depth - 1)
                case 1: if !o.isEmpty { o.remove(at: Int.random(in: 0..<o.count, using: &rng)) }
                default:
                    if !o.isEmpty {
                        let i = Int.random(in: 0..<o.count, using: &rng)
                        o[o[i].key] = mutate(o[i].value, depth: depth - 1)
                    }
                }
            }
            return .object(o)
        default:
            return roll < 5 ? scalar() : v
        }
    }
}

@Suite("Diff property")
struct JSONPatchDiffPropertyTests {
    @Test("apply(diff(a, b), a) == b for 10,000 random document pairs, and patches survive JSON text")
    func roundTrip() throws {
        var docs = RandomDocuments(rng: SeededGenerator(seed: 0x5EED_2026))
        var totalOperations = 0
        for pair in 0..<10_000 {
            let a = docs.value(depth: 5)
            let b = pair % 4 == 0 ? docs.value(depth: 5) : docs.mutate(a, depth: 5)
            let patch = JSONPatch.diff(from: a, to: b)
            totalOperations += patch.operations.count
            let applied: JSONValue
            do {
                applied = try patch.apply(to: a)
            } catch {
                Issue.record("pair \(pair): \(error)\na = \(a)\nb = \(b)\npatch = \(patch)")
                return
            }
            guard applied == b else {
                Issue.record("pair \(pair): apply(diff) != b\na = \(a)\nb = \(b)\npatch = \(patch)\ngot = \(applied)")
                return
            }
            if a == b { #expect(patch.isEmpty) }
            if pair % 10 == 0 {
                let reread = try JSONPatch(json: JSONValue(parsing: patch.json.serializedBytes()))
                #expect(reread == patch)
                #expect(try JSONValue(parsing: b.serialized()) == b)
            }
        }
        #expect(totalOperations > 0)
    }
}

@Suite("Text round-trip property")
struct JSONTextRoundTripTests {
    @Test("serialized text parses back to an equal value and re-serializes byte for byte, compact or indented")
    func roundTrip() throws {
        var docs = RandomDocuments(rng: SeededGenerator(seed: 0xC0FFEE))
        for n in 0..<1_000 {
            let value = docs.value(depth: 5)
            let compact = value.serializedBytes()
            let parsed = try JSONValue(parsing: compact)
            guard parsed == value, parsed.serializedBytes() == compact else {
                Issue.record("document \(n) did not round-trip: \(value)")
                return
            }
            // Whitespace does not matter: the indented form reads back to the same compact bytes.
            #expect(try JSONValue(parsing: value.prettyPrinted(indent: n % 5)).serializedBytes() == compact)
        }
    }
}
