import BenchKit
import Foundation
import RewindDaemon
import RewindSessionFile
import RewindWire

/// State history ("blame"): the events that changed the value at a JSON Pointer, over a long session, from the
/// session file's path index.
enum HistoryBenchmarks {
    static func run(_ context: BenchContext, session: RecordedSession) throws -> AreaReport {
        let reader = try session.store.openSession(session.id)
        guard reader.eventCount == Int64(session.events) else {
            throw BenchFailure("the session holds \(reader.eventCount) events, not \(session.events)")
        }
        let item = try JSONPointer("/sections/0/items/5/value")
        let section = try JSONPointer("/sections/0")
        let plan = context.pick(
            full: SamplingPlan(minSamples: 50, minSeconds: 3, maxSamples: 1_000, maxSeconds: 30),
            quick: SamplingPlan(minSamples: 10, minSeconds: 0.3, maxSeconds: 3))

        context.progress("history: one item's value over \(session.events) events")
        let itemAnswer = try reader.history(of: item)
        let itemTimes = try Sampler.collect(plan) {
            let start = MonotonicClock.nanoseconds()
            _ = try reader.history(of: item)
            return Double(MonotonicClock.nanoseconds() &- start)
        }
        context.progress("history: a section (many changes), newest 1,000")
        let sectionTimes = try Sampler.collect(plan) {
            let start = MonotonicClock.nanoseconds()
            _ = try reader.history(of: section, limit: 1_000)
            return Double(MonotonicClock.nanoseconds() &- start)
        }
        context.progress("history: a section, every change")
        let allSection = try reader.history(of: section)
        let sectionAllTimes = try Sampler.collect(context.pick(full: SamplingPlan(minSamples: 5, minSeconds: 1),
                                                               quick: SamplingPlan(minSamples: 3, minSeconds: 0.1))) {
            let start = MonotonicClock.nanoseconds()
            _ = try reader.history(of: section)
            return Double(MonotonicClock.nanoseconds() &- start)
        }

        // Baseline: no index — read every event (10,000 at a time) and look at its patch's paths.
        context.progress("history: baseline, reading every patch")
        let baselineStart = MonotonicClock.nanoseconds()
        var scanned: [Int64] = []
        var next: Int64 = 1
        let target = item.description
        while next <= Int64(session.events) {
            let last = min(Int64(session.events), next + 9_999)
            for event in try reader.events(next...last) {
                if event.patch?.operations.contains(where: { operation in
                    let path = operation.path.description
                    return path == target || target.hasPrefix(path + "/") || path.hasPrefix(target + "/")
                }) == true {
                    scanned.append(event.index)
                }
            }
            next = last + 1
        }
        let baseline = Double(MonotonicClock.nanoseconds() &- baselineStart)
        guard scanned.reversed() == itemAnswer.map(\.index) else {
            throw BenchFailure("the history (\(itemAnswer.count) events) disagrees with reading every patch "
                               + "(\(scanned.count) events)")
        }

        let events = Quantity.grouped(Double(session.events))
        let rows = [
            ReportRow(
                "history: events that changed one value, \(events)-event session, p99", .nanoseconds(itemTimes.p99),
                detail: "\(Quantity.grouped(Double(itemAnswer.count))) events found; median "
                    + "\(Quantity.duration(itemTimes.median)), n = \(Quantity.grouped(Double(itemTimes.count)))",
                target: .atMost(nanoseconds: 200_000_000),
                baseline: "reading every patch: \(Quantity.duration(baseline))",
                ratio: "\(Quantity.multiple(baseline / itemTimes.median)) faster (median)"),
            ReportRow(
                "history of a section (every change under it), newest 1,000, p99", .nanoseconds(sectionTimes.p99),
                detail: "median \(Quantity.duration(sectionTimes.median))"),
            ReportRow(
                "history of a section, all \(Quantity.grouped(Double(allSection.count))) changes, median",
                .nanoseconds(sectionAllTimes.median),
                detail: "p99 \(Quantity.duration(sectionAllTimes.p99))"),
        ]
        return AreaReport(
            title: "State history",
            method: """
                The seek benchmark's session file (\(events) one-field `replace` events cycling over the items of \
                a \(Quantity.size(Double(session.stateBytes))) state). `SessionReader.history(of:)` for one item's \
                value (`\(item)`), wall time per call on one reader after a warm-up; then for its section \
                (`\(section)`, every change to one of its items), limited to the newest 1,000 and in full. \
                Baseline (same run): the same answer found without the path index, by reading every event \
                (`SessionReader.events`, 10,000 at a time) and matching its patch's paths — checked equal.
                """,
            rows: rows)
    }
}
