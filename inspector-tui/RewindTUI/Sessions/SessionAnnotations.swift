import RewindSessionFile

/// What `SessionTimelineSource` knows about one session's main line beyond single rows — the actions skipped now,
/// the stretches of unknown state, where an app's `dropped` row is placed in time — kept up to date incrementally:
/// each `update` reads only the rows recorded since the previous one whose kinds matter
/// (`SessionReader.mainLineIndices(ofKinds:in:)`: seeks in the file's index of the rarer kinds). The stretches of
/// unknown state are the session file's own (`SessionReader.unknownStates`, the reading `rewind state` and the
/// daemon's commands use), so the timeline never shows as known a state they refuse as unknown.
///
/// A plain value type, used under `SessionTimelineSource`'s lock.
struct SessionAnnotations {
    private var scannedThrough: Int64 = 0
    private var skipped: Set<Int64> = []
    /// The main line's stretches of unknown state, in order.
    private var unknown: [UnknownState] = []
    /// App `dropped` rows (stamped with the daemon's clock when the message arrived) whose first following row
    /// has not been read yet.
    private var pendingDropped: [(index: Int64, time: Double)] = []
    /// The time shown for an app `dropped` row: that of the first action of its range when it was dispatched
    /// earlier than the row was received, so that times never run backwards.
    private var droppedTimes: [Int64: Double] = [:]
    /// Annotations of a session, empty until the first `update`.
    init() {}

    /// Takes the rows committed since the last call into account.
    mutating func update(_ reader: SessionReader) throws {
        let count = reader.eventCount
        guard count > scannedThrough else { return }
        for index in try reader.mainLineIndices(ofKinds: [.skip, .dropped], in: (scannedThrough + 1)...count) {
            let event = try reader.event(at: index)
            switch event.kind {
            case .skip:
                guard let mark = event.meaning.skip else { continue }
                if mark.skipped { skipped.insert(mark.event) } else { skipped.remove(mark.event) }
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

    /// The timeline row for `event`: the recorded row, placed in time, with whether it is skipped now and whether the
    /// main line's state before it is known.
    func row(_ event: RecordedEvent) -> TimelineEvent {
        TimelineEvent(event, time: droppedTimes[event.index],
                      isSkipped: event.kind == .action && event.branch == 0 && skipped.contains(event.index),
                      stateBeforeUnknown: isUnknown(after: event.index - 1))
    }
}
