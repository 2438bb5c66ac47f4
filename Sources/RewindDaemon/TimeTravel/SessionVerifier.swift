import Foundation
import RewindSessionFile
import RewindWire

/// Proves that today's reducers still produce a recorded session's states: a recorded session becomes a
/// regression test.
///
/// The recording is cut into *segments*: runs of consecutive action events. Before each segment the app is reset
/// to the recorded state (the initial state, or the state a jump, snapshot or reconnect put in place); then the
/// segment's recorded actions run through the app's own reducers with effects muted, and the state the app
/// reports after every action is compared with the recorded one. The first difference ends the verification and
/// is reported with the JSON Patch from the recorded state to the app's.
///
/// What it can prove: for every compared event, the app's reducers turn the recorded state and action into the
/// recorded next state. What it cannot: effects are muted (their results are in the recording as actions), so it
/// says nothing about effects themselves; events whose recorded state is unknown (``UnknownState``: inside a
/// `dropped` range, or after the daemon lost track of the app's state — an `out_of_order` or `patch_failed` error)
/// are not compared (their actions still run); redacted values are compared as their placeholder.
///
/// Threading: `verify` blocks the calling thread; `replay` is called on it, and `progress` too.
package struct SessionVerifier {
    /// Runs one segment in the app: reset to `state`, run `actions`, return the state after each action.
    package typealias Replay = (_ state: JSONValue, _ actions: [JSONValue]) throws -> [JSONValue]

    /// What a verification found.
    package enum Outcome: Sendable, Equatable {
        /// Every compared event matched.
        case verified(events: Int)
        /// The first event whose state differs.
        case diverged(Divergence)
    }

    /// The first event whose state the app computed differently from the recording.
    package struct Divergence: Sendable, Equatable {
        /// The event's index in the session.
        package var index: Int64
        /// The action's label.
        package var label: String
        /// The recorded state after the event.
        package var recorded: JSONValue
        /// The state the app computed.
        package var actual: JSONValue
        /// The patch that turns the recorded state into the app's.
        package var diff: JSONPatch
    }

    private let reader: SessionReader
    private let segmentLimit: Int
    private let stateBudget: Int

    /// A verifier for the session `reader` reads; segments longer than `segmentLimit` actions are split, and so
    /// are segments whose states would take more than `stateBudget` bytes of JSON in all (the states of a segment
    /// are held at once: with a 1 MB state, 64 actions a segment).
    package init(reader: SessionReader, segmentLimit: Int = 1_000, stateBudget: Int = 64 << 20) {
        self.reader = reader
        self.segmentLimit = max(1, segmentLimit)
        self.stateBudget = max(1, stateBudget)
    }

    /// Verifies the whole session through `replay`; `progress` is told how many events were checked so far.
    package func verify(replay: Replay, progress: (Int64, Int64) -> Void = { _, _ in }) throws -> Outcome {
        let total = reader.eventCount
        var compared = 0
        var segment: [(event: RecordedEvent, comparable: Bool)] = []
        var segmentStart: JSONValue = try reader.initialState()
        var index: Int64 = 1
        // The recorded states are rebuilt from stored patches within the reader's bound (a stored patch that
        // multiplies the state fails naming its event).
        func applied(_ patch: JSONPatch, to state: JSONValue, event index: Int64) throws -> JSONValue {
            var rebuild = BoundedStateRebuild(path: reader.fileURL.path, limit: reader.maxStateBytes)
            var result = state
            try rebuild.apply(patch, to: &result, event: index)
            return result
        }
        // How many actions a segment may hold: measured on the state it starts from.
        var limit = segmentLimit
        func measure() {
            limit = min(segmentLimit, max(1, stateBudget / max(64, segmentStart.serializedBytes().count)))
        }

        func flush() throws -> Divergence? {
            guard !segment.isEmpty else { return nil }
            defer { segment.removeAll(keepingCapacity: true) }
            let states = try replay(segmentStart, segment.map { $0.event.action ?? .null })
            guard states.count == segment.count else {
                throw DaemonError("the app reported \(states.count) states for \(segment.count) actions",
                                  code: .commandFailed)
            }
            var recorded = segmentStart
            for ((event, comparable), actual) in zip(segment, states) {
                if let patch = event.patch { recorded = try applied(patch, to: recorded, event: event.index) }
                guard comparable else {
                    // Inside a dropped range the recording has no state: follow the app until the next snapshot.
                    recorded = actual
                    continue
                }
                compared += 1
                if recorded != actual {
                    return Divergence(index: event.index, label: event.label ?? "", recorded: recorded,
                                      actual: actual, diff: JSONPatch.diff(from: recorded, to: actual))
                }
            }
            segmentStart = recorded
            return nil
        }

        while index <= total {
            // A page of the rows that exist: a gap in the numbering costs nothing.
            let events = try reader.events(after: index - 1, through: total, limit: 5_000, allBranches: false)
            guard let upper = events.last?.index else { break }
            for event in events {
                switch event.kind {
                case .action:
                    if segment.isEmpty { measure() }
                    // Compared only where the row says its state is known (RowMeaning).
                    segment.append((event, event.meaning.stateKnown))
                    if segment.count >= limit, let divergence = try flush() { return .diverged(divergence) }
                default:
                    if let divergence = try flush() { return .diverged(divergence) }
                    if let patch = event.patch { segmentStart = try applied(patch, to: segmentStart, event: event.index) }
                    if [.snapshot, .jump, .replay, .reconnect].contains(event.kind) {
                        segmentStart = try reader.state(at: event.index)
                    }
                }
            }
            progress(upper, total)
            index = upper + 1
        }
        if let divergence = try flush() { return .diverged(divergence) }
        return .verified(events: compared)
    }
}
