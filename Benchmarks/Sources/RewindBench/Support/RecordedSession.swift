import BenchKit
import Foundation
import RewindDaemon
import RewindSessionFile
import RewindWire

/// A long session file built for the seek and TUI benchmarks: `events` one-field changes (`touch`, a `replace`
/// of one item's `value`) on a ≈ 10 kB state, appended through `SessionRecording` with the default options
/// (a keyframe every 1,000 events), in its own data directory.
///
/// Threading: immutable after ``build(events:)``; the store and readers it opens are thread-safe.
final class RecordedSession: Sendable {
    /// The data directory's store.
    let store: SessionStore
    /// The session.
    let id: SessionID
    /// How many events it holds.
    let events: Int
    /// Appending and committing them took this long, seconds.
    let buildSeconds: Double
    /// The JSON size of the state, bytes.
    let stateBytes: Int

    /// The app name its sessions are recorded under (pins are saved per app).
    static let appName = "bench-seek"

    private init(store: SessionStore, id: SessionID, events: Int, buildSeconds: Double, stateBytes: Int) {
        self.store = store
        self.id = id
        self.events = events
        self.buildSeconds = buildSeconds
        self.stateBytes = stateBytes
    }

    /// Records `events` events into a new directory under the system's temporary directory. With
    /// `droppedRangeEvery: N`, every N events the app's outbox is shown coalescing as the daemon records it: a
    /// `dropped` row, two actions without a patch (their states unknown), and the `coalesced` snapshot that makes
    /// the state known again (these rows count among `events`).
    static func build(events: Int, droppedRangeEvery: Int? = nil) throws -> RecordedSession {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("rewind-bench-session-\(UUID().uuidString)", isDirectory: true)
        let store = try SessionStore(directory: directory)
        var state = try JSONValueEncoder().encode(BenchState.sized(10_000))
        let stateBytes = state.serializedBytes().count
        let recording = try store.createSession(
            appName: Self.appName, protocolVersion: 1, stateType: "BenchState", initialState: state)
        // The item values to change: every item of the state, cycled.
        var paths: [JSONPointer] = []
        for (section, sectionValue) in (state["sections"]?.arrayValue ?? []).enumerated() {
            for item in (sectionValue["items"]?.arrayValue ?? []).indices {
                paths.append(try JSONPointer("/sections/\(section)/items/\(item)/value"))
            }
        }
        guard !paths.isEmpty else { throw BenchFailure("the seek state has no items") }
        let start = MonotonicClock.seconds()
        let time = Date().timeIntervalSince1970
        var appSeq: Int64 = 0
        var rangeRow = 0  // 0: not in a dropped range; 1…4: the range's rows
        for index in 1...events {
            let position = index % paths.count
            let value = JSONValue.int(Int64(1_000_000 + index))
            let patch = JSONPatch([.replace(path: paths[position], value: value)])
            try patch.apply(to: &state)
            let action: JSONValue = ["touch": ["section": .int(Int64(position / BenchState.sectionSize)),
                                               "item": .int(Int64(position % BenchState.sectionSize)),
                                               "value": value]]
            let at = time + Double(index) * 0.001
            if let every = droppedRangeEvery, rangeRow == 0, index % every == 0, index + 4 <= events { rangeRow = 1 }
            switch rangeRow {
            case 1:
                recording.append(NewEvent(time: at, kind: .dropped, label: "dropped",
                                          detail: "the app's outbox was full: states of actions \(appSeq + 1)–"
                                              + "\(appSeq + 2) were not sent; a snapshot follows"),
                                 stateAfter: state)
            case 2, 3:
                appSeq += 1
                recording.append(NewEvent(appSeq: appSeq, time: at, kind: .action, label: "touch", action: action,
                                          reducerMicros: 1.5), stateAfter: state)
            case 4:
                recording.append(NewEvent(appSeq: appSeq, time: at, kind: .snapshot, label: "coalesced",
                                          detail: "full state (the previous one was unknown)"),
                                 stateAfter: state, forceKeyframe: true)
            default:
                appSeq += 1
                recording.append(
                    NewEvent(appSeq: appSeq, time: at, kind: .action, label: "touch",
                             action: action, patch: patch, reducerMicros: 1.5),
                    stateAfter: state)
            }
            rangeRow = rangeRow == 0 || rangeRow == 4 ? 0 : rangeRow + 1
            // Let the writer catch up now and then: a loaded machine must not make it coalesce events (the
            // session must hold every one), and 8,192 events stay well under the recording's 16 MiB buffer.
            if index % 8_192 == 0 { recording.flush() }
        }
        recording.flush()
        let seconds = MonotonicClock.seconds() - start
        guard recording.committedIndex == Int64(events) else {
            throw BenchFailure("the seek session committed \(recording.committedIndex) of \(events) events")
        }
        recording.finish(endState: .clean)
        return RecordedSession(store: store, id: recording.id, events: events, buildSeconds: seconds,
                               stateBytes: stateBytes)
    }

    /// Deletes the data directory.
    func remove() {
        try? FileManager.default.removeItem(at: store.directory)
    }
}
