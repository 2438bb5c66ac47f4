import Foundation
import RewindWire
import Testing

/// The differ's cost follows the change: subtrees the two documents share (the encoding memo reuses them) are
/// skipped without looking inside, arrays as well as objects.
@Suite("JSONPatch.diff skips shared storage")
struct DifferSharedStorageTests {
    /// A document with one big array and one big object, both shared by `a` and `b`, and one changed field.
    private func documents() -> (JSONValue, JSONValue) {
        let bigArray = JSONValue.array((0..<200_000).map { .object(["n": .int(Int64($0)), "s": "x"]) })
        let bigObject = JSONValue.object(JSONObject((0..<50_000).map { ("k\($0)", JSONValue.int(Int64($0))) }))
        let a: JSONValue = ["items": bigArray, "index": bigObject, "counter": 1]
        let b: JSONValue = ["items": bigArray, "index": bigObject, "counter": 2]
        return (a, b)
    }

    @Test("a shared array and a shared object cost nothing: 2,000 diffs of a 250,000-node document in well under a second")
    func sharedSubtreesAreSkipped() {
        let (a, b) = documents()
        let start = DispatchTime.now().uptimeNanoseconds
        var operations = 0
        for _ in 0..<2_000 { operations += JSONPatch.diff(from: a, to: b).operations.count }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        #expect(operations == 2_000)
        // Walking the array element by element would take 2,000 × 200,000 comparisons (minutes in a debug build).
        #expect(seconds < 1.0, "2,000 diffs took \(seconds) s")
    }

    @Test("an array that shares no storage but is equal still gives an empty patch")
    func equalUnsharedArrays() {
        let x = JSONValue.array((0..<1_000).map { .int(Int64($0)) })
        let y = JSONValue.array((0..<1_000).map { .int(Int64($0)) })
        #expect(JSONPatch.diff(from: ["a": x], to: ["a": y]).operations.isEmpty)
    }
}
