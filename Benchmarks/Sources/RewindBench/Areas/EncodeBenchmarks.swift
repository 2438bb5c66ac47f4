import BenchKit
import Foundation
import RewindWire

/// Codable → JSON: Rewind's `JSONValueEncoder` (what the inspector's thread runs for every state) against
/// Foundation's `JSONEncoder`, on the same states.
enum EncodeBenchmarks {
    static func run(_ context: BenchContext) throws -> AreaReport {
        // Each sample times the three encoders one after the other, so that load from elsewhere (the machine is
        // shared) hits all of them alike.
        let plan = context.pick(
            full: SamplingPlan(minSamples: 40, minSeconds: 4, maxSeconds: 30),
            quick: SamplingPlan(minSamples: 5, minSeconds: 0.3, maxSeconds: 3))
        let foundation = JSONEncoder()
        let rewind = JSONValueEncoder()
        var rows: [ReportRow] = []
        var textRows: [ReportRow] = []
        for size in StateSize.all() {
            context.progress("encode \(size.label)")
            let state = size.state
            for _ in 0..<3 {
                _ = try foundation.encode(state)
                _ = try rewind.encode(state).serializedBytes()
            }
            var baselineValues: [Double] = [], treeValues: [Double] = [], textValues: [Double] = []
            _ = try Sampler.collect(plan) {
                let start = MonotonicClock.nanoseconds()
                _ = try foundation.encode(state)
                let afterFoundation = MonotonicClock.nanoseconds()
                _ = try rewind.encode(state)
                let afterTree = MonotonicClock.nanoseconds()
                _ = try rewind.encode(state).serializedBytes()
                let afterText = MonotonicClock.nanoseconds()
                baselineValues.append(Double(afterFoundation &- start))
                treeValues.append(Double(afterTree &- afterFoundation))
                textValues.append(Double(afterText &- afterTree))
                return Double(afterText &- start)
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
                for an output-for-output comparison. Each sample runs the three one after the other (so that \
                load from elsewhere on the shared machine hits all alike); figures are medians of ≥ \
                \(plan.minSamples) samples over ≥ \(plan.minSeconds) s per size, after warm-up.
                """,
            rows: rows + textRows)
    }
}
