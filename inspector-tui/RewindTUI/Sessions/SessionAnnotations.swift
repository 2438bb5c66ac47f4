import RewindDaemon

/// What `SessionTimelineSource` knows about one session's main line beyond single rows — skipped actions,
/// stretches of unknown state, reconnects — kept up to date incrementally: each `update` scans only the labels
/// of the rows recorded since the previous one, and reads rows only after a row that made the state unknown,
/// until it finds the row that carries a full state again.
///
/// A plain value type, used under `SessionTimelineSource`'s lock.
struct SessionAnnotations {
    /// A stretch of main-line indices whose state is unknown: `first...` up to (not including) `end`, the row
    /// that carries a full state again (nil: not recorded yet).
    struct UnknownStretch {
        var first: Int64
        var end: Int64?
        /// Rows up to this index have been searched for `end`.
        var searchedThrough: Int64
    }

    private let startedAt: Double
    private var scannedThrough: Int64 = 0
    private var skipped: Set<Int64> = []
    private var reconnects: [(index: Int64, time: Double)] = []
    private var unknown: [UnknownStretch] = []
    /// App `dropped` rows (stamped with the daemon's clock when the message arrived) whose first following row
    /// has not been read yet.
    private var pendingDropped: [(index: Int64, time: Double)] = []
    /// The time shown for an app `dropped` row: that of the first action of its range when it was dispatched
    /// earlier than the row was received, so that times never run backwards.
    private var droppedTimes: [Int64: Double] = [:]

    /// Annotations of a session whose first connection started at `startedAt` (unix seconds).
    init(startedAt: Double) {
        self.startedAt = startedAt
    }

    /// Takes the rows committed since the last call into account.
    mutating func update(_ reader: SessionReader) throws {
        let count = reader.eventCount
        guard count > scannedThrough else { return }
        let pattern = "^(skip|unskip|reconnect|dropped|patch_failed|out_of_order)$"
        for index in try reader.eventIndices(matchingLabel: pattern, in: (scannedThrough + 1)...count) {
            let event = try reader.event(at: index)
            guard event.branch == 0 else { continue }
            switch event.kind {
            case .skip:
                guard let detail = event.detail, detail.hasPrefix("event "),
                      let target = Int64(detail.dropFirst("event ".count).prefix(while: \.isNumber)) else { continue }
                if event.label == "skip" { skipped.insert(target) } else { skipped.remove(target) }
            case .reconnect:
                reconnects.append((index, event.time))
            default:
                let kind = TimelineEventKind(rawValue: event.kind.rawValue) ?? .note
                guard let start = RecordedRowMeaning.unknownStart(kind: kind, label: event.label) else { continue }
                if event.kind == .dropped { pendingDropped.append((index, event.time)) }
                try searchEnd(reader, before: index)
                if let last = unknown.last, last.end == nil { continue }  // already unknown from before
                let first = start == .afterRow ? index + 1 : index
                unknown.append(UnknownStretch(first: first, end: nil, searchedThrough: index))
            }
        }
        scannedThrough = count
        try searchEnd(reader, before: count + 1)
        try placeDroppedRows(reader, through: count)
    }

    /// Gives each pending app `dropped` row the time of the row after it, when that is earlier.
    private mutating func placeDroppedRows(_ reader: SessionReader, through count: Int64) throws {
        guard !pendingDropped.isEmpty else { return }
        var waiting: [(index: Int64, time: Double)] = []
        for dropped in pendingDropped {
            guard dropped.index < count,
                  let next = try reader.events((dropped.index + 1)...min(count, dropped.index + 64)).first else {
                waiting.append(dropped)
                continue
            }
            if next.time < dropped.time { droppedTimes[dropped.index] = next.time }
        }
        pendingDropped = waiting
    }

    /// Looks for the row that ends the last, still open, unknown stretch, among the rows before `limit`.
    private mutating func searchEnd(_ reader: SessionReader, before limit: Int64) throws {
        guard var stretch = unknown.last, stretch.end == nil else { return }
        while stretch.searchedThrough < limit - 1 {
            let lower = stretch.searchedThrough + 1
            let upper = min(limit - 1, lower + 1_999)
            for event in try reader.events(lower...upper) where [.snapshot, .jump, .replay, .reconnect].contains(event.kind) {
                stretch.end = event.index
                break
            }
            stretch.searchedThrough = upper
            if stretch.end != nil { break }
        }
        unknown[unknown.count - 1] = stretch
    }

    /// Whether the main line's state after `index` is unknown.
    func isUnknown(after index: Int64) -> Bool {
        // Stretches are few and in order: look from the newest.
        for stretch in unknown.reversed() {
            if index >= stretch.first { return stretch.end.map { index < $0 } ?? true }
        }
        return false
    }

    /// The time the connection that delivered main-line event `index` started.
    func connectedAt(before index: Int64) -> Double {
        reconnects.last { $0.index < index }?.time ?? startedAt
    }

    /// The timeline row for `event`, annotated.
    func row(_ event: RecordedEvent) -> TimelineEvent {
        let kind = TimelineEventKind(rawValue: event.kind.rawValue) ?? .note
        let main = event.branch == 0
        return TimelineEvent(
            index: Int(event.index), time: droppedTimes[event.index] ?? event.time, kind: kind, label: event.label,
            patchSize: event.patch?.operations.count, reducerMicros: event.reducerMicros, detail: event.detail,
            isSkipped: event.kind == .action && main && skipped.contains(event.index), branch: Int(event.branch),
            recomputes: main ? nil : RecordedRowMeaning.recomputedEvent(detail: event.detail),
            stateUnknown: main && isUnknown(after: event.index),
            stateBeforeUnknown: isUnknown(after: event.index - 1),
            beforeConnect: main && event.kind != .reconnect && event.time < connectedAt(before: event.index),
            lostActions: kind == .dropped ? RecordedRowMeaning.lostActions(detail: event.detail) : nil)
    }
}
