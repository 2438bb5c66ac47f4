import BenchKit
import Foundation
import RewindWire

/// Codable → JSON: Rewind's `JSONValueEncoder` (what the inspector's thread runs for every state) against
/// Foundation's `JSONEncoder`, on the same states.
enum EncodeBenchmarks {
    static func run(_ context: BenchContext) throws -> AreaReport {
        // Rounds alternate the three encoders, so that a burst of load from elsewhere hits all of them alike.
        let rounds = context.pick(full: 6, quick: 1)
        let plan = context.pick(
            full: SamplingPlan(minSamples: 6, minSeconds: 0.3, maxSeconds: 5),
            quick: SamplingPlan(minSamples: 5, minSeconds: 0.15, maxSeconds: 2))
        let foundation = JSONEncoder()
        let rewind = JSONValueEncoder()
        var rows: [ReportRow] = []
        var textRows: [ReportRow] = []
        for size in StateSize.all() {
            context.progress("encode \(size.label)")
            let state = size.state
            var baselineValues: [Double] = [], treeValues: [Double] = [], textValues: [Double] = []
            for _ in 0..<rounds {
                baselineValues += try Sampler.time(plan) { _ = try foundation.encode(state) }.sorted
                treeValues += try Sampler.time(plan) { _ = try rewind.encode(state) }.sorted
                textValues += try Sampler.time(plan) { _ = try rewind.encode(state).serializedBytes() }.sorted
            }
            let baseline = Samples(baselineValues), tree = Samples(treeValues), text = Samples(textValues)
            let speedup = baseline.median / tree.median
            rows.append(ReportRow(
                "Codable → JSONValue, \(size.longLabel)", .nanoseconds(tree.median),
                detail: "p99 \(Quantity.duration(tree.p99))",
                target: Target(.atLeast, 10, "≥ 10× JSONEncoder"),
                baseline: "JSONEncoder: \(Quantity.duration(baseline.median))",
                ratio: "\(Quantity.multiple(speedup)) faster", met: speedup >= 10))
            let textSpeedup = baseline.median / text.median
            textRows.append(ReportRow(
                "Codable → JSON text (JSONValueEncoder, then serialized), \(size.longLabel)", .nanoseconds(text.median),
                detail: "p99 \(Quantity.duration(text.p99))",
                baseline: "JSONEncoder: \(Quantity.duration(baseline.median))",
                ratio: "\(Quantity.multiple(textSpeedup)) faster"))
        }
        return AreaReport(
            title: "Encode",
            method: """
                `JSONValueEncoder().encode(state)` — the inspector thread's encoding of each state into a JSON \
                value tree, which it diffs — against `JSONEncoder().encode(state)` (Foundation, default options, one \
                encoder reused) on the same `BenchState` (sections of to-do items, ≈ 100 B of JSON per item). \
                The target applies to the tree, which is what the pipeline needs; the text rows add serialization \
                for an output-for-output comparison. Each figure: the median of all timed runs of \(rounds) \
                round(s) that alternate the encoders (each round: ≥ \(plan.minSamples) runs over ≥ \
                \(plan.minSeconds) s per encoder, after warm-up), so that load from elsewhere hits all alike.
                """,
            rows: rows + textRows)
    }
}
