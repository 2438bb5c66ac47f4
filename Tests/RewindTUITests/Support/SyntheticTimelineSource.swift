import Foundation
import RewindSessionFile
import RewindTUI
import RewindWire

/// A session of any length whose rows are made up on demand, counting what the UI reads: proves the timeline
/// is lazy (a 1,000,000-event session costs only the rows on screen) and gives a steady source for timing.
final class SyntheticTimelineSource: TimelineDataSource, @unchecked Sendable {  // counters guarded by `lock`
    let count: Int
    let baseState: JSONValue
    private let lock = NSLock()
    private var rowsReadStorage = 0
    private var detailReadsStorage = 0
    private var stateReadsStorage = 0

    /// A saved session of `count` events on a state of about 10 kB.
    init(count: Int) {
        self.count = count
        var items: [JSONValue] = []
        for item in 0..<80 {
            items.append([
                "id": .int(Int64(item)), "title": .string("Item number \(item) with a longer title"),
                "done": .bool(item % 3 == 0), "tags": ["alpha", "beta", .string("t\(item % 7)")],
                "value": .int(Int64(item * 1_000)),
            ])
        }
        baseState = ["items": .array(items), "filter": "all", "cursor": 0, "user": ["name": "ada", "id": 1]]
    }

    var rowsRead: Int { lock.withLock { rowsReadStorage } }
    var detailReads: Int { lock.withLock { detailReadsStorage } }
    var stateReads: Int { lock.withLock { stateReadsStorage } }

    var changeCounter: UInt64 { 0 }

    func header() -> TimelineHeader {
        TimelineHeader(caption: "saved session big (read-only)")
    }

    func sessions() -> [TimelineSession] {
        [TimelineSession(id: "big", appName: "stress", instance: "host:1", startedAt: Fixtures.start,
                         eventCount: count, status: .ended)]
    }

    private func row(_ index: Int) -> TimelineEvent {
        let labels = ["item/update", "item/toggle", "filter/set", "cursor/move", "作業/更新"]
        let label = labels[index % labels.count]
        let operations = (0...(index % 3)).map { _ in
            JSONPatchOperation.replace(path: JSONPointer(tokens: ["cursor"]), value: .int(Int64(index)))
        }
        return TimelineEvent(RecordedEvent(
            index: Int64(index), appSeq: Int64(index), time: Fixtures.start + Double(index) / 1000,
            kind: index % 997 == 0 ? .dropped : .action, label: label,
            action: ["type": .string(label), "payload": ["index": .int(Int64(index))]], patch: JSONPatch(operations),
            reducerMicros: Double(index % 500), detail: index % 997 == 0 ? "states coalesced" : nil))
    }

    func events(session: String, range: ClosedRange<Int>) throws -> [TimelineEvent] {
        let clamped = max(1, range.lowerBound)...min(count, range.upperBound)
        lock.withLock { rowsReadStorage += clamped.count }
        return clamped.map(row)
    }

    func event(session: String, index: Int) throws -> TimelineEvent {
        lock.withLock { detailReadsStorage += 1 }
        return row(index)
    }

    func state(session: String, index: Int) throws -> JSONValue {
        lock.withLock { stateReadsStorage += 1 }
        guard case .object(var object) = baseState else { return baseState }
        object["cursor"] = .int(Int64(index))
        return .object(object)
    }
}

/// Actions that do nothing (for sources without an app).
final class NoActions: TimelineActions {
    func jump(session: String, index: Int) throws -> String { "" }
    func skip(session: String, index: Int) throws -> String { "" }
    func replay(session: String, from index: Int) throws -> String { "" }
    func dispatch(session: String, action: JSONValue) throws -> String { "" }
    func export(session: String) throws -> String { "" }
    func quit() {}
}
