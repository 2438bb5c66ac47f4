import BenchKit
import Foundation
import Rewind
import RewindWire

/// What one action costs on the inspector's thread and on the wire with a 1 MB state: encode + diff after one
/// change, the bytes of the resulting frame, and applying such a patch on the daemon's side.
enum WireBenchmarks {
    static func run(_ context: BenchContext) throws -> AreaReport {
        let size = StateSize("1 MB", bytes: 1_000_000)
        var state = size.state
        var touches = TouchSequence(over: state)
        let encoder = JSONValueEncoder()
        let foundation = JSONEncoder()
        let slow = context.pick(
            full: SamplingPlan(minSamples: 100, minSeconds: 6, maxSeconds: 40),
            quick: SamplingPlan(minSamples: 5, minSeconds: 0.3, maxSeconds: 3))
        let fast = context.pick(
            full: SamplingPlan(minSamples: 20_000, minSeconds: 1, maxSeconds: 10),
            quick: SamplingPlan(minSamples: 2_000, minSeconds: 0.1, maxSeconds: 1))

        // Encode + diff after one change, as the pipeline does per action, with the JSONEncoder baseline timed
        // right after it in the same sample (so that load from elsewhere hits both alike).
        context.progress("wire: encode + diff, 1 MB")
        var previous = try encoder.encode(state)
        var lastPatch = JSONPatch()
        var lastAction = touches.next()
        var encodeAndDiffValues: [Double] = [], diffValues: [Double] = [], naiveValues: [Double] = []
        _ = try Sampler.collect(slow) {
            lastAction = touches.next()
            state.apply(lastAction)
            let start = MonotonicClock.nanoseconds()
            let encoded = try encoder.encode(state)
            let encodedAt = MonotonicClock.nanoseconds()
            lastPatch = JSONPatch.diff(from: previous, to: encoded)
            let diffedAt = MonotonicClock.nanoseconds()
            _ = try foundation.encode(state)
            let naiveAt = MonotonicClock.nanoseconds()
            previous = encoded
            encodeAndDiffValues.append(Double(diffedAt &- start))
            diffValues.append(Double(diffedAt &- encodedAt))
            naiveValues.append(Double(naiveAt &- diffedAt))
            return Double(naiveAt &- start)
        }
        guard lastPatch.operations.count == 1 else {
            throw BenchFailure("a one-field change gave a patch of \(lastPatch.operations.count) operations")
        }
        let encodeAndDiff = Samples(encodeAndDiffValues)
        let diffOnly = Samples(diffValues)
        let naive = Samples(naiveValues)
        let naiveBytes = try foundation.encode(state).count

        // Bytes of the frame the pipeline sends for that action: an action dispatched from a place the connection
        // has seen before, so its source location travels as the number the pipeline's SourceTable gave it.
        let payload = try encoder.encode(lastAction)
        let location = "RewindBench/AppThreadBenchmarks.swift:123"
        var sources = SourceTable()
        let firstSource = sources.encode(location)
        var event = ActionEvent(
            seq: 123_456, time: Date().timeIntervalSince1970,
            action: ActionPayload(type: ActionLabel.of(lastAction), payload: payload), patch: lastPatch,
            reducerMicros: 1.25, source: sources.encode(location))
        let actionFrame = WireCodec.encode(.action(event)).count
        event.source = firstSource
        let firstFrame = WireCodec.encode(.action(event)).count
        var batchSources = SourceTable()
        let batch = (0..<512).map { offset -> ActionEvent in
            var copy = event
            copy.seq += UInt64(offset)
            copy.source = batchSources.encode(location)
            return copy
        }
        let batchPerEvent = Double(WireCodec.encode(.batch(batch)).count) / 512

        // Applying a small patch to a 1 MB document (the daemon, per event), against parsing the whole state
        // (what a receiver of full states does per action).
        context.progress("wire: apply, 1 MB")
        var document = previous
        let path = lastPatch.operations[0].path
        var flip: Int64 = 0
        let apply = try Sampler.collect(fast) {
            flip &+= 1
            let patch = JSONPatch([.replace(path: path, value: .int(flip))])
            let start = MonotonicClock.nanoseconds()
            try patch.apply(to: &document)
            return Double(MonotonicClock.nanoseconds() &- start)
        }
        let text = previous.serializedBytes()
        let parse = try Sampler.time(slow) { _ = try JSONValue(parsing: text) }

        let rows = [
            ReportRow(
                "encode + diff of a 1 MB state after one change", .nanoseconds(encodeAndDiff.median),
                detail: "p99 \(Quantity.duration(encodeAndDiff.p99)), n = \(encodeAndDiff.count)",
                target: .atMost(nanoseconds: 5_000_000),
                baseline: "JSONEncoder of the whole state: \(Quantity.duration(naive.median))",
                ratio: "\(Quantity.multiple(naive.median / encodeAndDiff.median)) faster"),
            ReportRow(
                "… of which the diff", .nanoseconds(diffOnly.median),
                detail: "p99 \(Quantity.duration(diffOnly.p99))"),
            ReportRow(
                "wire bytes per action, 1 MB state, one-field change (`action` frame)", .bytes(Double(actionFrame)),
                target: Target(.atMost, 256, "≤ 256 B"),
                baseline: "the whole state per action: \(Quantity.size(Double(naiveBytes)))",
                ratio: "\(Quantity.multiple(Double(naiveBytes) / Double(actionFrame))) fewer bytes"),
            ReportRow(
                "… per event inside a 512-event `batch` frame", .bytes(batchPerEvent.rounded()),
                target: Target(.atMost, 256, "≤ 256 B"),
                baseline: "the whole state per action: \(Quantity.size(Double(naiveBytes)))",
                ratio: "\(Quantity.multiple(Double(naiveBytes) / batchPerEvent)) fewer bytes"),
            ReportRow(
                "apply a one-operation patch to a 1 MB document (in place)", .nanoseconds(apply.median),
                detail: "p99 \(Quantity.duration(apply.p99)), n = \(Quantity.grouped(Double(apply.count)))",
                baseline: "parsing the whole 1 MB state: \(Quantity.duration(parse.median))",
                ratio: "\(Quantity.multiple(parse.median / apply.median)) faster"),
        ]
        event.source = sources.encode(location)
        let sample = String(decoding: WireCodec.encode(.action(event)), as: UTF8.self)
        var bare = event
        bare.source = nil
        bare.reducerMicros = nil
        let bareFrame = WireCodec.encode(.action(bare)).count
        return AreaReport(
            title: "Wire and diff",
            method: """
                A `BenchState` of \(size.longLabel) of JSON; each sample changes one item's `value` (the \
                reducer's `touch`), then times what the inspector's thread does for that action: `JSONValueEncoder` encodes \
                the new state and `JSONPatch.diff` compares it with the previous encoding. The frame is built as \
                the pipeline builds it (label, encoded action, patch, reducer time, source) and encoded with \
                `WireCodec`; its source is a place the connection has sent before, so it travels as a number (the \
                first action from a place carries the location's text), and in the batch the first event carries the \
                text and the other 511 the number. Apply: `JSONPatch.apply(to: &document)` of one `replace` on the 1 MB document, as the \
                daemon does per event. Each encode + diff sample also times the `JSONEncoder` baseline right after \
                it, on the same state (so that load from elsewhere hits both alike); ≥ \(slow.minSamples) samples \
                over ≥ \(slow.minSeconds) s. Baselines: what a full-state-per-action design pays instead — \
                `JSONEncoder` of the whole state, the whole state's bytes, and parsing the whole state.
                """,
            rows: rows,
            notes: ["The measured `action` frame (\(actionFrame) B; the first action from that place, with the location's "
                + "text, \(firstFrame) B); without its optional `source` and `reducerMicros` members it would be "
                + "\(bareFrame) B:\n\n```json\n\(sample)\n```"])
    }
}
