import Testing
import RewindWire

/// Encoders kept from one encoding to the next must encode exactly as fresh ones do, whatever came before.
@Suite("Encoding with a kept workspace")
struct JSONValueEncoderWorkspaceTests {
    /// A memo that encodes every array through its site (so the kept array encoders are used) and reuses nothing.
    final class PassThroughMemo: JSONValueEncodingMemo {
        func handles(_ type: Any.Type) -> Bool { type == [Item].self || type == [Section].self }
        func encode<T: Encodable>(_ value: T, at site: JSONValueEncodingSite) throws -> JSONValue {
            if let items = value as? [Item] { return try site.encodeArray(items) { _ in nil } }
            if let sections = value as? [Section] { return try site.encodeArray(sections) { _ in nil } }
            return try site.encodeFully(value)
        }
    }

    struct Item: Codable, Equatable {
        var id: Int
        var name: String?
        var tags: [String] = []
    }

    struct Section: Codable, Equatable {
        var title: String
        var items: [Item]
    }

    enum Change: Codable, Equatable {
        case add(Item)
        case rename(id: Int, name: String)
        case clear
    }

    struct Document: Codable, Equatable {
        var sections: [Section]
        var last: Change?
        var count: Int
    }

    struct Failing: Encodable {
        struct Failure: Error {}
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: DynamicKey.self)
            try container.encode(1, forKey: DynamicKey(stringValue: "a")!)
            throw Failure()
        }
    }

    struct DynamicKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    @Test("documents of changing shapes (optional members present or not, enum cases, empty arrays) encode as a fresh encoder encodes them")
    func sameAsFresh() throws {
        let encoder = JSONValueEncoder()
        let memo = PassThroughMemo()
        let workspace = JSONValueEncoderWorkspace()
        var rng = SeededGenerator(seed: 29)
        for round in 0..<300 {
            let document = Self.document(&rng)
            let kept = try encoder.encode(document, memo: memo, reusing: workspace)
            #expect(kept == (try encoder.encode(document)), "round \(round)")
            #expect(kept.serialized() == (try encoder.encode(document)).serialized(), "member order, round \(round)")
            if round % 37 == 0 {
                // An error midway leaves nothing behind for the next encoding.
                #expect(throws: Failing.Failure.self) { try encoder.encode(Failing(), memo: memo, reusing: workspace) }
            }
        }
    }

    static func document(_ rng: inout SeededGenerator) -> Document {
        func item() -> Item {
            Item(id: Int.random(in: 0..<100, using: &rng),
                 name: Bool.random(using: &rng) ? "n\(Int.random(in: 0..<9, using: &rng))" : nil,
                 tags: Bool.random(using: &rng) ? [] : ["a", "b"])
        }
        let sections = (0..<Int.random(in: 0...3, using: &rng)).map { index in
            Section(title: "s\(index)", items: (0..<Int.random(in: 0...4, using: &rng)).map { _ in item() })
        }
        let change: Change? = switch Int.random(in: 0..<4, using: &rng) {
        case 0: .add(item())
        case 1: .rename(id: 3, name: "x")
        case 2: .clear
        default: nil
        }
        return Document(sections: sections, last: change, count: Int.random(in: 0..<5, using: &rng))
    }
}
