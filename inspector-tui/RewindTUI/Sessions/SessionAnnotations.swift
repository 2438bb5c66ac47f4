import RewindSessionFile

/// What `SessionTimelineSource` knows about one session's main line beyond single rows — skipped actions,
/// stretches of unknown state, reconnects — kept up to date incrementally: each `update` reads only the rows
/// recorded since the previous one whose kinds matter (`SessionReader.mainLineIndices(ofKinds:in:)`: seeks in the
/// file's index of the rarer kinds). The stretches of
/// unknown state are the session file's own (`SessionReader.unknownStates`, the reading `rewind state` and the
/// daemon's commands use), so the timeline never shows as known a state they refuse as unknown.
///
/// A plain value type, used under `SessionTimelineSource`'s lock.
struct SessionAnnotations {
    private let startedAt: Double
    private var scannedThrough: Int64 = 0
    private var skipped: Set<Int64> = []
    private var reconnects: [(index: Int64, time: Double)] = []
    /// The main line's stretches of unknown state, in order.
    private var unknown: [UnknownState] = []
    /// App `dropped` rows (stamped with the daemon's clock when the message arrived) whose first following row
    /// has not been read yet.
    private var pendingDropped: [(index: Int64, time: Double)] = []
    /// The time shown for an app `dropped` row: that of the first action of its range when it was dispatched
    /// earlier than the row was received, so that times never run backwards.
    private var droppedTimes: [Int64: Double] = [:]
    /// True for a file of schema 1, whose rows do not say whether an action was dispatched before its connection:
    /// the times of the connections tell instead.
    private var timesTellBeforeConnect = false

    /// Annotations of a session whose first connection started at `startedAt` (unix seconds).
    init(startedAt: Double) {
        self.startedAt = startedAt
    }

    /// Takes the rows committed since the last call into account.
    mutating func update(_ reader: SessionReader) throws {
        let count = reader.eventCount
        guard count > scannedThrough else { return }
        timesTellBeforeConnect = reader.metadata.schemaVersion < 2
        for index in try reader.mainLineIndices(ofKinds: [.skip, .reconnect, .dropped], in: (scannedThrough + 1)...count) {
            let event = try reader.event(at: index)
            switch event.kind {
            case .skip:
                guard let mark = event.meaning.skip else { continue }
                if mark.skipped { skipped.insert(mark.event) } else { skipped.remove(mark.event) }
            case .reconnect:
                reconnects.append((index, event.time))
            case .dropped:
                pendingDropped.append((index, event.time))
            default:
                continue
            }
        }
        scannedThrough = count
        unknown = try reader.unknownStates().filter { $0.branch == 0 }
        try placeDroppedRows(reader, through: count)
    }

    /// Gives each pending app `dropped` row the time of the row after it, when that is earlier.
    private mutating func placeDroppedRows(_ reader: SessionReader, through count: Int64) throws {
        guard !pendingDropped.isEmpty else { return }
        var waiting: [(index: Int64, time: Double)] = []
        for dropped in pendingDropped {
            // The next main-line row is nearly always the next row; branch rows may come between (read further).
            guard dropped.index < count,
                  let next = try reader.events((dropped.index + 1)...(dropped.index + 1)).first
                      ?? reader.events((dropped.index + 1)...min(count, dropped.index + 64)).first else {
                waiting.append(dropped)
                continue
            }
            if next.time < dropped.time { droppedTimes[dropped.index] = next.time }
        }
        pendingDropped = waiting
    }

    /// Whether the main line's state after `index` is unknown.
    func isUnknown(after index: Int64) -> Bool {
        // The stretches are in order and do not overlap: the last one starting at or before `index` decides.
        var low = 0, high = unknown.count - 1, found: UnknownState?
        while low <= high {
            let middle = (low + high) / 2
            if unknown[middle].first <= index {
                found = unknown[middle]
                low = middle + 1
            } else {
                high = middle - 1
            }
        }
        return found?.contains(index, branch: 0) ?? false
    }

    /// The time the connection that delivered main-line event `index` started.
    func connectedAt(before index: Int64) -> Double {
        reconnects.last { $0.index < index }?.time ?? startedAt
    }

    /// The timeline row for `event`, annotated.
    func row(_ event: RecordedEvent) -> TimelineEvent {
        let kind = event.kind
        let main = event.branch == 0
        return TimelineEvent(
            index: Int(event.index), time: droppedTimes[event.index] ?? event.time, kind: kind, label: event.label,
            patchSize: event.patch?.operations.count, reducerMicros: event.reducerMicros, detail: event.detail,
            isSkipped: event.kind == .action && main && skipped.contains(event.index), branch: Int(event.branch),
            recomputes: main ? nil : event.meaning.recomputes.map { Int(clamping: $0) },
            stateUnknown: main && !event.meaning.stateKnown,
            stateBeforeUnknown: isUnknown(after: event.index - 1),
            beforeConnect: main && event.kind != .reconnect
                && (timesTellBeforeConnect ? event.time < connectedAt(before: event.index) : event.meaning.beforeConnect),
            lostActions: event.meaning.lost.map { Int(clamping: $0.count) })
    }
}
