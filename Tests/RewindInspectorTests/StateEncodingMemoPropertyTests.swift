import Foundation
@_spi(Benchmarks) @testable import RewindInspector
import RewindWire
import Testing

/// The encoding memo against the truth: after every random edit of a nested state, the memoised encoding equals a
/// fresh full encoding, and the patch the pipeline would send (memo tree N−1 → memo tree N), applied to the fresh
/// encoding of state N−1, gives the fresh encoding of state N.
///
/// `make test` runs a bounded number of edit sequences; `make fuzz` runs many more
/// (`REWIND_MEMO_FUZZ_SEQUENCES`, and `REWIND_MEMO_FUZZ_SEED` to replay one run).
@Suite("StateEncodingMemo: the memoised encoding equals a full encoding after any edit")
struct StateEncodingMemoPropertyTests {
    // MARK: The state under test

    /// A class instance inside the state: it changes without any collection's storage changing.
    final class Counter: Codable, Equatable, @unchecked Sendable {
        var value: Int
        init(_ value: Int) { self.value = value }
        static func == (a: Counter, b: Counter) -> Bool { a.value == b.value }
    }

    enum Kind: Codable, Equatable {
        case plain
        case tagged(String)
        case scored(Int, weight: Double)
        case nested([Int])
        case deeper(inner: [String: [Int]])
    }

    struct Item: Codable, Equatable {
        var id: Int
        var title: String
        var tags: [String]
        var done: Bool
        var note: String?
        var kind: Kind
    }

    struct Group: Codable, Equatable {
        var name: String
        var items: [Item]
        var scores: [String: Int]
        var flags: Set<String>
        var history: ContiguousArray<Kind>
    }

    struct FuzzState: Codable {
        var groups: [Group]
        var byID: [String: Item]
        var matrix: [[Int]]
        var counter: Int
        var selected: Int?
        var ids: ContiguousArray<Int>
        var counter2: Counter
        var counters: [Counter]
        var tree: Kind?
        var optionalItems: [Item?]
        /// Arrays under keys that read as array indices (and some that do not: `01`, a huge one), beside arrays of
        /// arrays: the memo keeps index-like places apart from the others.
        var numbered: [String: [Int]]
    }

    static let numberedKeys = ["0", "1", "2", "10", "01", "65", "70", "700", "007", "4000000000", "-1"]

    // MARK: Random edits

    /// SplitMix64: a seeded generator, so a failing run can be replayed.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func word(_ rng: inout SplitMix) -> String {
        ["a", "bb", "tag", "x/y", "~0", "ü", "", "long word here", "q"].randomElement(using: &rng)!
    }

    static func kind(_ rng: inout SplitMix) -> Kind {
        switch Int.random(in: 0..<5, using: &rng) {
        case 0: return .plain
        case 1: return .tagged(word(&rng))
        case 2: return .scored(Int.random(in: -5...5, using: &rng), weight: Double(Int.random(in: 0...8, using: &rng)) / 4)
        case 3: return .nested((0..<Int.random(in: 0...12, using: &rng)).map { _ in Int.random(in: 0...9, using: &rng) })
        default:
            return .deeper(inner: [word(&rng): (0..<Int.random(in: 0...10, using: &rng)).map { $0 }])
        }
    }

    static func item(_ rng: inout SplitMix, id: Int) -> Item {
        Item(id: id, title: word(&rng), tags: (0..<Int.random(in: 0...10, using: &rng)).map { _ in word(&rng) },
             done: Bool.random(using: &rng), note: Bool.random(using: &rng) ? word(&rng) : nil, kind: kind(&rng))
    }

    static func group(_ rng: inout SplitMix, name: String) -> Group {
        Group(name: name, items: (0..<Int.random(in: 0...12, using: &rng)).map { item(&rng, id: $0) },
              scores: Dictionary(uniqueKeysWithValues: (0..<Int.random(in: 0...10, using: &rng)).map { ("k\($0)", $0) }),
              flags: Set((0..<Int.random(in: 0...10, using: &rng)).map { "f\($0)" }),
              history: ContiguousArray((0..<Int.random(in: 0...9, using: &rng)).map { _ in kind(&rng) }))
    }

    static func initialState(_ rng: inout SplitMix) -> FuzzState {
        FuzzState(
            groups: (0..<Int.random(in: 1...4, using: &rng)).map { group(&rng, name: "g\($0)") },
            byID: Dictionary(uniqueKeysWithValues: (0..<Int.random(in: 0...10, using: &rng)).map { ("i\($0)", item(&rng, id: $0)) }),
            matrix: (0..<Int.random(in: 0...10, using: &rng)).map { _ in (0..<10).map { $0 } },
            counter: 0, selected: nil,
            ids: ContiguousArray(0..<Int.random(in: 0...20, using: &rng)),
            counter2: Counter(0),
            counters: (0..<Int.random(in: 0...9, using: &rng)).map { Counter($0) },
            tree: nil,
            optionalItems: (0..<Int.random(in: 0...9, using: &rng)).map { Bool.random(using: &rng) ? item(&rng, id: $0) : nil },
            numbered: Dictionary(uniqueKeysWithValues: numberedKeys.filter { _ in Bool.random(using: &rng) }.map {
                ($0, Array(0..<Int.random(in: 0...12, using: &rng)))
            }))
    }

    /// Applies one random edit (some change nothing; some only change a class instance in place).
    static func edit(_ s: inout FuzzState, _ rng: inout SplitMix) {
        let g = Int.random(in: 0..<s.groups.count, using: &rng)
        switch Int.random(in: 0..<28, using: &rng) {
        case 0: s.counter += 1
        case 1: if !s.groups[g].items.isEmpty {
            s.groups[g].items[Int.random(in: 0..<s.groups[g].items.count, using: &rng)].title = word(&rng) }
        case 2: s.groups[g].items.append(item(&rng, id: Int.random(in: 0...99, using: &rng)))
        case 3: if !s.groups[g].items.isEmpty { s.groups[g].items.remove(at: Int.random(in: 0..<s.groups[g].items.count, using: &rng)) }
        case 4: s.groups[g].items.insert(item(&rng, id: 7), at: 0)
        case 5: if !s.groups[g].items.isEmpty {
            s.groups[g].items[Int.random(in: 0..<s.groups[g].items.count, using: &rng)].tags.append(word(&rng)) }
        case 6: s.groups[g].scores[word(&rng)] = Int.random(in: 0...9, using: &rng)
        case 7: if let key = s.groups[g].scores.keys.randomElement(using: &rng) { s.groups[g].scores[key] = nil }
        case 8: s.groups[g].flags.insert(word(&rng))
        case 9: if let flag = s.groups[g].flags.randomElement(using: &rng) { s.groups[g].flags.remove(flag) }
        case 10: s.byID["i\(Int.random(in: 0...12, using: &rng))"] = item(&rng, id: 1)
        case 11: if !s.matrix.isEmpty {
            let r = Int.random(in: 0..<s.matrix.count, using: &rng)
            s.matrix[r][Int.random(in: 0..<10, using: &rng)] = Int.random(in: 0...99, using: &rng) }
        case 12: s.matrix.append((0..<10).map { _ in Int.random(in: 0...9, using: &rng) })
        case 13: s.selected = s.selected == nil ? Int.random(in: 0...9, using: &rng) : nil
        case 14: if s.ids.isEmpty { s.ids.append(1) } else { s.ids[Int.random(in: 0..<s.ids.count, using: &rng)] += 1 }
        case 15: s.counter2.value += 1                                   // a class changed in place
        case 16: if let c = s.counters.randomElement(using: &rng) { c.value += 1 }   // inside an unchanged array
        case 17: s.counters.append(Counter(Int.random(in: 0...9, using: &rng)))
        case 18: s.tree = kind(&rng)
        case 19: let copy = s.groups; s.groups = copy                      // same storage: no change
        case 20: if s.groups[g].items.count > 1 { s.groups[g].items.swapAt(0, s.groups[g].items.count - 1) }
        case 21: s.groups[g].items.sort { $0.title < $1.title }
        case 22: s.groups[g].history.append(kind(&rng))
        case 23: if !s.optionalItems.isEmpty {
            let i = Int.random(in: 0..<s.optionalItems.count, using: &rng)
            s.optionalItems[i] = s.optionalItems[i] == nil ? item(&rng, id: i) : nil }
        case 24: s.groups.append(group(&rng, name: word(&rng)))
        case 25:
            let key = numberedKeys.randomElement(using: &rng)!
            if var values = s.numbered[key], !values.isEmpty, Bool.random(using: &rng) {
                values[Int.random(in: 0..<values.count, using: &rng)] += 1
                s.numbered[key] = values
            } else {
                s.numbered[key, default: []].append(Int.random(in: 0...9, using: &rng))
            }
        case 26: s.numbered[numberedKeys.randomElement(using: &rng)!] = nil
        default: if s.groups.count > 1 { s.groups.remove(at: g) }
        }
    }

    // MARK: The property

    static var sequences: Int {
        ProcessInfo.processInfo.environment["REWIND_MEMO_FUZZ_SEQUENCES"].flatMap(Int.init) ?? 60
    }
    static var seed: UInt64 {
        ProcessInfo.processInfo.environment["REWIND_MEMO_FUZZ_SEED"].flatMap(UInt64.init)
            ?? UInt64(Date().timeIntervalSince1970 * 1000)
    }

    @Test("random edit sequences: memo tree == full encoding, and the patch sent rebuilds state N from N−1")
    func randomEditSequences() throws {
        let seed = Self.seed
        let full = JSONValueEncoder()
        var edits = 0
        var reused = 0
        for sequence in 0..<Self.sequences {
            var rng = SplitMix(state: seed &+ UInt64(sequence))
            var state = Self.initialState(&rng)
            // Small collections too, so that every path of the memo is taken on small states.
            let memo = StateEncodingMemo(minimumCount: sequence % 2 == 0 ? 1 : 4)
            var previousMemo = try memo.encode(state)
            var previousFresh = try full.encode(state)
            try #require(previousMemo == previousFresh, "seed \(seed) sequence \(sequence): initial state")
            for step in 0..<40 {
                Self.edit(&state, &rng)
                let memoTree = try memo.encode(state)
                let fresh = try full.encode(state)
                try #require(memoTree == fresh, "seed \(seed) sequence \(sequence) step \(step): memo tree differs")
                let patch = JSONPatch.diff(from: previousMemo, to: memoTree)
                let rebuilt = try patch.apply(to: previousFresh)
                try #require(rebuilt == fresh, "seed \(seed) sequence \(sequence) step \(step): the patch does not rebuild N")
                previousMemo = memoTree
                previousFresh = fresh
                edits += 1
            }
            reused += memo.reusedWhole + memo.reusedElementwise
        }
        #expect(edits == Self.sequences * 40)
        // The memo must actually have been used, or the property says nothing.
        #expect(reused > edits / 4, "seed \(seed): the memo reused only \(reused) collections in \(edits) edits")
    }

    @Test("an array of class instances is never reused: a change inside one shows in the next encoding")
    func classesAreEncodedEachTime() throws {
        let counters = [Counter(1), Counter(2), Counter(3)]
        let state = ["counters": counters]
        let memo = StateEncodingMemo(minimumCount: 1)
        _ = try memo.encode(state)
        counters[1].value = 20
        let second = try memo.encode(state)
        #expect(second == (try JSONValueEncoder().encode(state)))
        #expect(second["counters"]?[1]?["value"] == .int(20))
    }

    @Test("a change inside an element last reused by equality finds the collections around it: nothing is encoded in full")
    func nestedPlacesOutliveTheirReuse() throws {
        struct Entry: Codable, Equatable { var id: Int; var value: Int }
        struct Section: Codable, Equatable { var name: String; var entries: [Entry] }
        struct Sections: Codable { var sections: [Section] }
        var state = Sections(sections: (0..<10).map { s in
            Section(name: "s\(s)", entries: (0..<50).map { Entry(id: $0, value: 0) })
        })
        let memo = StateEncodingMemo()
        let full = JSONValueEncoder()
        _ = try memo.encode(state)
        let fullyAtFirst = memo.encodedFully
        // Section 0, then 1, then 0 again: when section 0 changes the second time, it was last reused (as an equal
        // element of the changed `sections`), not visited; its entries must still be remembered.
        for (step, section) in [0, 1, 0, 1, 2, 0].enumerated() {
            state.sections[section].entries[step].value += 1
            let tree = try memo.encode(state)
            #expect(tree == (try full.encode(state)))
        }
        #expect(memo.encodedFully == fullyAtFirst, "\(memo.encodedFully - fullyAtFirst) collections encoded in full")
        #expect(memo.reusedElementwise == 12)   // per step: `sections`, and the changed section's `entries`
    }

    @Test("an unchanged array is reused whole, so the differ skips it without looking inside")
    func unchangedArrayIsShared() throws {
        struct Big: Codable { var items: [[String: Int]]; var counter: Int }
        var state = Big(items: (0..<1000).map { ["n": $0] }, counter: 0)
        let memo = StateEncodingMemo()
        let first = try memo.encode(state)
        state.counter += 1
        let second = try memo.encode(state)
        #expect(memo.reusedWhole == 1)
        guard case .array(let a) = first["items"], case .array(let b) = second["items"] else {
            Issue.record("items is not an array")
            return
        }
        let shared = a.withUnsafeBufferPointer { pa in b.withUnsafeBufferPointer { pb in pa.baseAddress == pb.baseAddress } }
        #expect(shared)
        #expect(JSONPatch.diff(from: first, to: second).operations.count == 1)
    }
}
