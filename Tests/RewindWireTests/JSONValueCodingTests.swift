import Foundation
import Testing
import RewindWire

/// Sample app-like types covering what `Codable` synthesizes.
enum TodoAction: Codable, Equatable {
    case add(title: String)
    case toggle(id: Int)
    case remove(UUIDLike)
    case clearCompleted
    case filter(Filter)
}

struct UUIDLike: Codable, Equatable, Hashable { var raw: String }

enum Filter: String, Codable, Equatable { case all, active, done }

struct Todo: Codable, Equatable {
    var id: Int
    var title: String
    var done: Bool
    var due: Date?
    var tags: [String]
    var rating: Double
}

struct AppState: Codable, Equatable {
    var todos: [Todo]
    var filter: Filter
    var counts: [String: Int]
    var avatar: Data
    var homepage: URL
    var small: Int8
    var big: UInt64
    var ratio: Float
    var note: String?
    var nested: [[Int]]
    var extra: JSONValue
}

/// A type using nested containers and a super encoder by hand.
struct Handmade: Codable, Equatable {
    var a: Int
    var inner: [String]
    var point: (x: Double, y: Double)

    enum Keys: String, CodingKey { case a, inner, point, x, y }

    init(a: Int, inner: [String], point: (x: Double, y: Double)) {
        self.a = a
        self.inner = inner
        self.point = point
    }

    static func == (l: Handmade, r: Handmade) -> Bool {
        l.a == r.a && l.inner == r.inner && l.point == r.point
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(a, forKey: .a)
        var list = c.nestedUnkeyedContainer(forKey: .inner)
        for s in inner { try list.encode(s) }
        var p = c.nestedContainer(keyedBy: Keys.self, forKey: .point)
        try p.encode(point.x, forKey: .x)
        try p.encode(point.y, forKey: .y)
        var sup = c.superEncoder().singleValueContainer()
        try sup.encode("base")
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        a = try c.decode(Int.self, forKey: .a)
        var list = try c.nestedUnkeyedContainer(forKey: .inner)
        var inner: [String] = []
        while !list.isAtEnd { inner.append(try list.decode(String.self)) }
        self.inner = inner
        let p = try c.nestedContainer(keyedBy: Keys.self, forKey: .point)
        point = (try p.decode(Double.self, forKey: .x), try p.decode(Double.self, forKey: .y))
        let sup = try c.superDecoder().singleValueContainer()
        guard try sup.decode(String.self) == "base" else { throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "super")) }
    }
}

@Suite("Encoding Codable values into JSONValue")
struct JSONValueCodingTests {
    static let sample = AppState(
        todos: [
            Todo(id: 1, title: "Write tests", done: true, due: Date(timeIntervalSince1970: 1_700_000_000.5), tags: ["dev"], rating: 4.5),
            Todo(id: 2, title: "Ship ✨", done: false, due: nil, tags: [], rating: 0),
        ],
        filter: .active,
        counts: ["open": 1, "done": 1],
        avatar: Data([0, 1, 2, 250, 255]),
        homepage: URL(string: "https://example.com/a?b=c")!,
        small: -8,
        big: UInt64(Int64.max),
        ratio: 0.1,
        note: nil,
        nested: [[1, 2], [], [3]],
        extra: ["free": [1, "form", nil]])

    @Test("a state encodes to the expected tree, with declaration key order")
    func encodeTree() throws {
        let v = try JSONValueEncoder().encode(JSONValueCodingTests.sample)
        #expect(v.objectValue?.keys == ["todos", "filter", "counts", "avatar", "homepage", "small", "big", "ratio", "nested", "extra"])
        #expect(v["todos"]?[0] == [
            "id": 1, "title": "Write tests", "done": true, "due": 1_700_000_000.5, "tags": ["dev"], "rating": 4.5,
        ])
        #expect(v["todos"]?[1]?["due"] == nil, "nil optionals are omitted")
        #expect(v["filter"] == "active")
        #expect(v["counts"] == ["open": 1, "done": 1])
        #expect(v["avatar"] == "AAEC+v8=")
        #expect(v["homepage"] == "https://example.com/a?b=c")
        #expect(v["small"] == -8)
        #expect(v["big"] == .int(.max))
        #expect(v["ratio"] == 0.1)
        #expect(v["nested"] == [[1, 2], [], [3]])
        #expect(v["extra"] == ["free": [1, "form", nil]])
    }

    @Test("the tree matches what JSONEncoder writes")
    func matchesJSONEncoder() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let viaText = try JSONValue(parsing: [UInt8](encoder.encode(JSONValueCodingTests.sample)))
        let direct = try JSONValueEncoder().encode(JSONValueCodingTests.sample)
        #expect(direct.isNumericallyEqual(to: viaText), "\(direct)\n\(viaText)")
    }

    @Test("enums with associated values use the synthesized keyed form")
    func enums() throws {
        let encoder = JSONValueEncoder()
        #expect(try encoder.encode(TodoAction.add(title: "x")) == ["add": ["title": "x"]])
        #expect(try encoder.encode(TodoAction.toggle(id: 3)) == ["toggle": ["id": 3]])
        #expect(try encoder.encode(TodoAction.remove(UUIDLike(raw: "u"))) == ["remove": ["_0": ["raw": "u"]]])
        #expect(try encoder.encode(TodoAction.clearCompleted) == ["clearCompleted": [:]])
        #expect(try encoder.encode(TodoAction.filter(.done)) == ["filter": ["_0": "done"]])
    }

    @Test("everything decodes back to the same values")
    func roundTrip() throws {
        let encoder = JSONValueEncoder(), decoder = JSONValueDecoder()
        let state = JSONValueCodingTests.sample
        #expect(try decoder.decode(AppState.self, from: encoder.encode(state)) == state)
        for action in [TodoAction.add(title: "x"), .toggle(id: 3), .remove(UUIDLike(raw: "u")), .clearCompleted, .filter(.all)] {
            #expect(try decoder.decode(TodoAction.self, from: encoder.encode(action)) == action)
        }
        let handmade = Handmade(a: 1, inner: ["p", "q"], point: (1.5, -2))
        let tree = try encoder.encode(handmade)
        #expect(tree == ["a": 1, "inner": ["p", "q"], "point": ["x": 1.5, "y": -2.0], "super": "base"])
        #expect(try decoder.decode(Handmade.self, from: tree) == handmade)
        #expect(try decoder.decode([String: [Int]].self, from: encoder.encode(["a": [1], "b": []])) == ["a": [1], "b": []])
        #expect(try encoder.encode(42) == 42)
        #expect(try encoder.encode(Optional<Int>.none) == nil)
        #expect(try encoder.encode([1.5, 2]) == [1.5, 2.0])
        #expect(try decoder.decode(JSONValue.self, from: ["x": [1, 2.5]]) == ["x": [1, 2.5]])
        #expect(try decoder.decode(Decimal.self, from: encoder.encode(Decimal(string: "12.25")!)) == Decimal(string: "12.25")!)
        #expect(try decoder.decode([Int: String].self, from: encoder.encode([1: "one"])) == [1: "one"])
    }

    @Test("values JSON cannot hold exactly are refused")
    func refused() {
        let encoder = JSONValueEncoder()
        #expect(throws: EncodingError.self) { try encoder.encode(Double.nan) }
        #expect(throws: EncodingError.self) { try encoder.encode(["x": Double.infinity]) }
        #expect(throws: EncodingError.self) { try encoder.encode(UInt64.max) }
        do {
            _ = try encoder.encode(["a": [1.0, .nan]])
            Issue.record("expected a failure")
        } catch let EncodingError.invalidValue(_, context) {
            #expect(context.codingPath.map(\.stringValue) == ["a", "1"])
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("encoding errors inside arrays of structs carry the element's position")
    func encodingPathsInArrays() throws {
        struct Point: Encodable { var x: Double }
        do {
            _ = try JSONValueEncoder().encode(["points": [Point(x: 1), Point(x: .nan)]])
            Issue.record("expected a failure")
        } catch let EncodingError.invalidValue(_, context) {
            #expect(context.codingPath.map(\.stringValue) == ["points", "1", "x"])
        }
    }

    @Test("the decoder accepts ints as doubles and integral doubles as ints, and rejects the rest")
    func lenientNumbers() throws {
        let decoder = JSONValueDecoder()
        #expect(try decoder.decode(Double.self, from: 3) == 3.0)
        #expect(try decoder.decode(Int.self, from: 3.0) == 3)
        #expect(try decoder.decode(UInt8.self, from: 255) == 255)
        #expect(throws: DecodingError.self) { try decoder.decode(Int.self, from: 3.5) }
        #expect(throws: DecodingError.self) { try decoder.decode(UInt8.self, from: 256) }
        #expect(throws: DecodingError.self) { try decoder.decode(Int.self, from: "3") }
        #expect(throws: DecodingError.self) { try decoder.decode(Bool.self, from: 1) }
    }

    @Test("decoding errors carry the coding path")
    func decodingPaths() throws {
        var tree = try JSONValueEncoder().encode(JSONValueCodingTests.sample).objectValue!
        var todos = tree["todos"]!.arrayValue!
        var second = todos[1].objectValue!
        second["title"] = 7
        todos[1] = .object(second)
        tree["todos"] = .array(todos)
        do {
            _ = try JSONValueDecoder().decode(AppState.self, from: .object(tree))
            Issue.record("expected a failure")
        } catch let DecodingError.typeMismatch(_, context) {
            #expect(context.codingPath.map(\.stringValue) == ["todos", "1", "title"])
        }
        tree["filter"] = nil
        do {
            _ = try JSONValueDecoder().decode(AppState.self, from: .object(tree))
            Issue.record("expected a failure")
        } catch DecodingError.keyNotFound(let key, _) {
            #expect(key.stringValue == "filter" || key.stringValue == "todos")
        } catch DecodingError.typeMismatch {
            // The earlier mismatch in todos[1] may be reported first.
        }
    }

    @Test("JSONValue is Codable through Foundation's coders too")
    func foundationCoders() throws {
        let value: JSONValue = ["a": [1, 2.5, "x", nil, true], "b": [:]]
        let data = try JSONEncoder().encode(value)
        let back = try JSONDecoder().decode(JSONValue.self, from: data)
        #expect(back.isNumericallyEqual(to: value))
    }
}
