import BenchKit
import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTUI
import RewindWire

/// The timeline's `/` search over a long session file: a label search (through the file's label index) and an
/// action-text search (an SQL scan), each over every event, against the row-by-row scan the timeline used before
/// (measured in the same run, over fewer events: it takes minutes over all of them).
enum SearchBenchmarks {
    static func run(_ context: BenchContext) throws -> AreaReport {
        let count = context.pick(full: 1_000_000, quick: 100_000)
        let events = Quantity.grouped(Double(count))
        context.progress("search: recording a \(events)-event session")
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("rewind-bench-search-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SessionStore(directory: directory)
        let recording = try store.createSession(appName: "bench-search", protocolVersion: 1, initialState: ["n": 0])
        let labels = ["todo/add", "todo/toggle", "todo/remove", "filter/set", "user/rename", "cart/addItem"]
        let start = Date().timeIntervalSince1970
        for index in 1...count {
            let value = JSONValue.int(Int64(index))
            // The one event the searches look for is the last: each search reads the whole session.
            let label = index == count ? "checkout/confirmed" : labels[index % labels.count]
            recording.append(
                NewEvent(appSeq: Int64(index), time: start + Double(index) * 0.001, kind: .action, label: label,
                         action: ["type": .string(label), "n": value, "title": .string("item \(index % 997)")],
                         patch: JSONPatch([.replace(path: JSONPointer(tokens: ["n"]), value: value)])),
                stateAfter: ["n": value])
            if index % 20_000 == 0 { recording.flush() }
        }
        recording.flush()
        guard recording.committedIndex == Int64(count) else {
            throw BenchFailure("the search session committed \(recording.committedIndex) of \(count) events")
        }
        recording.finish(endState: .clean)
        let id = recording.id.rawValue
        let source = SessionTimelineSource(store: store, daemon: nil, only: recording.id)
        guard source.sessions().first?.eventCount == count else { throw BenchFailure("the session is not listed") }

        func search(_ query: TimelineSearchQuery) throws -> Int? {
            try source.firstEvent(session: id, matching: query, in: 1...count, forward: true,
                                  progress: TimelineSearchProgress())
        }
        let labelQuery = try TimelineSearchQuery(parsing: "^checkout/")
        let actionQuery = try TimelineSearchQuery(parsing: "action:\"checkout/confirmed\"")
        guard try search(labelQuery) == count, try search(actionQuery) == count else {
            throw BenchFailure("the searches did not find the last event")
        }
        let plan = context.pick(full: SamplingPlan(minSamples: 20, minSeconds: 2, maxSeconds: 30),
                                quick: SamplingPlan(minSamples: 5, minSeconds: 0.2, maxSeconds: 5))
        context.progress("search: label search")
        let label = try Sampler.time(plan, warmup: 2) { _ = try search(labelQuery) }
        context.progress("search: action text search")
        let action = try Sampler.time(plan, warmup: 1) { _ = try search(actionQuery) }

        // Baseline: the timeline's former search, reading rows (with their actions and patches) 1,000 at a time
        // and matching each label in Swift, over at most the first 100,000 events, never reaching the match.
        let baselineCount = min(count - 1, 100_000)  // short of the last event, the one match
        context.progress("search: baseline, the row scan over \(Quantity.grouped(Double(baselineCount))) events")
        let filter = try TimelineLabelFilter(pattern: "^checkout/")
        let baselineStart = MonotonicClock.nanoseconds()
        let none = try source.firstEvent(session: id, matching: filter, from: 1, forward: true, limit: baselineCount)
        let baseline = Double(MonotonicClock.nanoseconds() &- baselineStart)
        guard none == nil else { throw BenchFailure("the baseline found an event it should not") }
        let perEvent = baseline / Double(baselineCount)

        let target = Target.atMost(nanoseconds: 200_000_000)
        let rows = [
            ReportRow(
                "label search over \(events) events (match: the last event)", .nanoseconds(label.median),
                detail: "max \(Quantity.duration(label.maximum)) of \(label.count)", target: target,
                baseline: "row scan: \(Quantity.duration(baseline)) for the first "
                    + "\(Quantity.grouped(Double(baselineCount))) events",
                ratio: "\(Quantity.multiple(perEvent * Double(count) / label.median)) faster (per event)"),
            ReportRow(
                "action text search over \(events) events (match: the last event)", .nanoseconds(action.median),
                detail: "max \(Quantity.duration(action.maximum)) of \(action.count)"),
        ]
        return AreaReport(
            title: "Search",
            method: """
                A session file of \(events) events recorded through `SessionRecording` (six labels in turn; the \
                last event alone is labelled `checkout/confirmed`). `SessionTimelineSource.firstEvent(session:\
                matching:in:forward:progress:)` — what the timeline's search thread calls for `/` — searched \
                1…\(events) forward for `^checkout/` (label: the file's label index) and for \
                `action:"checkout/confirmed"` (an SQL scan of the action text), page cache warm. Baseline, in the \
                same run: the former search (rows read 1,000 at a time and matched in Swift) over the first \
                \(Quantity.grouped(Double(baselineCount))) events; the ratio compares time per event.
                """,
            rows: rows)
    }
}
