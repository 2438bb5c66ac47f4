import BenchKit
import Foundation
import RewindDaemon
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

    private init(store: SessionStore, id: SessionID, events: Int, buildSeconds: Double, stateBytes: Int) {
        self.store = store
        self.id = id
        self.events = events
        self.buildSeconds = buildSeconds
        self.stateBytes = stateBytes
    }

    /// Records `events` events into a new directory under the system's temporary directory.
    static func build(events: Int) throws -> RecordedSession {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("rewind-bench-session-\(UUID().uuidString)", isDirectory: true)
        let store = try SessionStore(directory: directory)
        var state = try JSONValueEncoder().encode(BenchState.sized(10_000))
        let stateBytes = state.serializedBytes().count
        let recording = try store.createSession(
            appName: "bench-seek", protocolVersion: 1, stateType: "BenchState", initialState: state)
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
        for index in 1...events {
            let position = index % paths.count
            let value = JSONValue.int(Int64(1_000_000 + index))
            let patch = JSONPatch([.replace(path: paths[position], value: value)])
            try patch.apply(to: &state)
            let action: JSONValue = ["touch": ["section": .int(Int64(position / BenchState.sectionSize)),
                                               "item": .int(Int64(position % BenchState.sectionSize)),
                                               "value": value]]
            recording.append(
                NewEvent(appSeq: Int64(index), time: time + Double(index) * 0.001, kind: .action, label: "touch",
                         action: action, patch: patch, reducerMicros: 1.5),
                stateAfter: state)
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
