import Testing
import RewindWire

@Suite("JSONObject")
struct JSONObjectTests {
    @Test("setting keeps positions, nil removes, new keys append")
    func mutation() {
        var o: JSONObject = ["a": 1, "b": 2]
        o["a"] = "x"
        o["c"] = true
        o["b"] = nil
        #expect(o.keys == ["a", "c"])
        #expect(o["a"] == "x")
        #expect(o["b"] == nil)
        #expect(o.count == 2)
        #expect(o.map(\.key) == ["a", "c"])
    }

    @Test("equality and hashing ignore key order")
    func orderInsensitive() {
        let a: JSONObject = ["x": 1, "y": [1, 2], "z": ["k": nil]]
        let b: JSONObject = ["z": ["k": nil], "x": 1, "y": [1, 2]]
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(Set([JSONValue.object(a), .object(b)]).count == 1)
        let c: JSONObject = ["x": 1, "y": [2, 1], "z": ["k": nil]]
        #expect(a != c)
    }

    @Test("large objects stay correct across the indexing threshold")
    func largeObjects() {
        var o = JSONObject()
        let n = 200
        for i in 0..<n { o["k\(i)"] = .int(Int64(i)) }
        #expect(o.count == n)
        for i in stride(from: 0, to: n, by: 3) { o["k\(i)"] = nil }
        for i in 0..<n {
            #expect(o["k\(i)"] == (i % 3 == 0 ? nil : .int(Int64(i))))
        }
        #expect(o.index(forKey: "k1") == 0)
        #expect(o.index(forKey: "k2") == 1)
        while o.count > 5 { o.remove(at: 0) }
        #expect(o.count == 5)
        #expect(o.keys.last == "k\(n - 1)")
        #expect(o["k\(n - 1)"] == .int(Int64(n - 1)))
        #expect(o["k1"] == nil)
        let keys = (0..<50).map { "key\($0 % 40)" }
        let built = JSONObject(keys: keys, values: keys.indices.map { .int(Int64($0)) })
        #expect(built.count == 40)
        #expect(built["key0"] == .int(40))
        #expect(built.keys.first == "key0")
    }
}
