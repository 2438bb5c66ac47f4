import Foundation
import Testing
import RewindWire

/// Shapes that exercise the encoder's reuse of key orders between objects of one type.
@Suite("Encoding many objects of one type")
struct JSONValueEncoderShapeTests {
    struct Item: Codable, Equatable {
        var id: Int
        var a: String?
        var b: Double?
        var c: [Int]?
        var d: Bool
    }

    /// Encodes the same key twice and keys in varying order.
    struct Quirky: Encodable {
        var n: Int
        enum K: String, CodingKey { case x, y, z }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: K.self)
            if n % 2 == 0 {
                try c.encode(1, forKey: .x)
                try c.encode(2, forKey: .y)
            } else {
                try c.encode(3, forKey: .y)
                try c.encode(4, forKey: .x)
            }
            try c.encode(n, forKey: .x)   // overwrites x in place
            if n % 3 == 0 { try c.encode("z", forKey: .z) }
        }
    }

    @Test("objects with optional members present or absent keep their own keys, in declaration order")
    func optionalMembers() throws {
        var items: [Item] = []
        for i in 0..<200 {
            items.append(Item(id: i, a: i % 2 == 0 ? "a\(i)" : nil, b: i % 3 == 0 ? Double(i) / 2 : nil,
                              c: i % 5 == 0 ? [i] : nil, d: i % 7 == 0))
        }
        let tree = try JSONValueEncoder().encode(items)
        let elements = try #require(tree.arrayValue)
        for (i, item) in items.enumerated() {
            var expected = ["id"]
            if item.a != nil { expected.append("a") }
            if item.b != nil { expected.append("b") }
            if item.c != nil { expected.append("c") }
            expected.append("d")
            #expect(elements[i].objectValue?.keys == expected, "item \(i)")
        }
        #expect(try JSONValueDecoder().decode([Item].self, from: tree) == items)
        let viaText = try JSONValue(parsing: [UInt8](JSONEncoder().encode(items)))
        #expect(tree.isNumericallyEqual(to: viaText))
    }

    @Test("repeated and reordered keys: the last value wins, at the first position")
    func quirky() throws {
        let tree = try JSONValueEncoder().encode((0..<12).map { Quirky(n: $0) })
        let elements = try #require(tree.arrayValue)
        for n in 0..<12 {
            let o = try #require(elements[n].objectValue)
            #expect(o["x"] == .int(Int64(n)))
            #expect(o["y"] == (n % 2 == 0 ? 2 : 3))
            #expect(o.keys == (n % 2 == 0 ? ["x", "y"] : ["y", "x"]) + (n % 3 == 0 ? ["z"] : []), "element \(n)")
        }
    }

    @Test("arrays of enums whose cases alternate, and of hand-written nested containers, encode like JSONEncoder")
    func alternatingKeyTypes() throws {
        var actions: [TodoAction] = []
        for i in 0..<300 {
            switch i % 5 {
            case 0: actions.append(.add(title: "t\(i)"))
            case 1: actions.append(.toggle(id: i))
            case 2: actions.append(.remove(UUIDLike(raw: "u\(i)")))
            case 3: actions.append(.clearCompleted)
            default: actions.append(.filter(i % 2 == 0 ? .done : .all))
            }
        }
        let tree = try JSONValueEncoder().encode(actions)
        #expect(try JSONValueDecoder().decode([TodoAction].self, from: tree) == actions)
        #expect(tree.isNumericallyEqual(to: try JSONValue(parsing: [UInt8](JSONEncoder().encode(actions)))))
        #expect(tree[1] == ["toggle": ["id": 1]])
        #expect(tree[3] == ["clearCompleted": [:]])

        let handmade = (0..<50).map { Handmade(a: $0, inner: Array(repeating: "x", count: $0 % 4), point: (Double($0), 0.5)) }
        let handTree = try JSONValueEncoder().encode(handmade)
        #expect(try JSONValueDecoder().decode([Handmade].self, from: handTree) == handmade)
        #expect(handTree[7] == ["a": 7, "inner": ["x", "x", "x"], "point": ["x": 7.0, "y": 0.5], "super": "base"])
    }

    @Test("dictionaries of varying and large key sets encode completely")
    func dictionaries() throws {
        var maps: [[String: Int]] = []
        for i in 0..<40 {
            var m: [String: Int] = [:]
            for k in 0..<(i * 7 % 90) { m["key\((k * 13 + i) % 120)"] = k }
            maps.append(m)
        }
        let tree = try JSONValueEncoder().encode(maps)
        #expect(try JSONValueDecoder().decode([[String: Int]].self, from: tree) == maps)
        for (i, m) in maps.enumerated() { #expect(tree[i]?.objectValue?.count == m.count) }
    }

    @Test("encoding twice gives equal trees, and the same value encoded by several threads agrees")
    func repeatable() async throws {
        let items = (0..<50).map { Item(id: $0, a: "x", b: nil, c: [$0, $0], d: true) }
        let encoder = JSONValueEncoder()
        let first = try encoder.encode(items)
        #expect(try encoder.encode(items) == first)
        let trees = try await withThrowingTaskGroup(of: JSONValue.self) { group in
            for _ in 0..<4 { group.addTask { try encoder.encode(items) } }
            var all: [JSONValue] = []
            for try await tree in group { all.append(tree) }
            return all
        }
        #expect(trees.allSatisfy { $0 == first })
    }
}
