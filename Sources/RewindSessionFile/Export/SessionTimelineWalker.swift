import RewindWire

/// Walks a session's events in index order with the state after each, computed incrementally (previous state
/// of the event's branch + its patch) and corrected by keyframes: where a keyframe differs from the computed
/// state (a snapshot, a branch's first event) the keyframe wins and the event is flagged as replacing the state.
/// Events inside a stretch of unknown state (``UnknownState``: a `dropped` range) come with that stretch: the state
/// passed with them is the last one recorded before it, which the app no longer had.
/// Threading: confined to the calling thread (the reader it uses is itself thread-safe).
package struct SessionTimelineWalker {
    package let reader: SessionReader
    /// Every branch, or only the original timeline (branch 0).
    package let allBranches: Bool
    /// The largest state rebuilt from patches, in bytes of compact JSON (see `JSONPatch.apply(to:size:maxSize:)`).
    package let maxStateBytes: Int
    /// Events read per query.
    package var chunkSize = 2048

    /// Calls `body(event, stateAfter, replacesState, unknown)` for each event up to the reader's `eventCount`.
    package func walk(
        _ body: (RecordedEvent, JSONValue, Bool, UnknownState?) throws(SessionStoreError) -> Void
    ) throws(SessionStoreError) {
        var states: [Int64: JSONValue] = [0: try reader.initialState()]
        // The stretches of unknown state per branch, in order, and how far each branch's list has been passed.
        var stretches: [Int64: [UnknownState]] = [:]
        for stretch in try reader.unknownStates() { stretches[stretch.branch, default: []].append(stretch) }
        for branch in stretches.keys { stretches[branch]?.sort { $0.first < $1.first } }
        var cursors: [Int64: Int] = [:]
        func unknown(_ event: RecordedEvent) -> UnknownState? {
            guard let list = stretches[event.branch] else { return nil }
            var cursor = cursors[event.branch] ?? 0
            while cursor < list.count, let last = list[cursor].last, last < event.index { cursor += 1 }
            cursors[event.branch] = cursor
            guard cursor < list.count, list[cursor].contains(event.index, branch: event.branch) else { return nil }
            return list[cursor]
        }
        var sizes: [Int64: Int] = [:]  // compactSize of each branch's state, once measured
        let total = reader.eventCount
        var after: Int64 = 0
        while after < total {
            // A page of the rows that exist: a gap in the numbering costs nothing.
            let events = try reader.events(after: after, through: total, limit: chunkSize, allBranches: allBranches)
            guard let first = events.first, let last = events.last else { break }
            let keyframes = try reader.keyframeIndices(in: first.index...last.index)
            for event in events {
                var computed = states[event.branch]
                if var state = computed, let patch = event.patch {
                    var size = sizes[event.branch] ?? state.compactSize(limit: maxStateBytes)
                    do {
                        try patch.apply(to: &state, size: &size, maxSize: maxStateBytes)
                        sizes[event.branch] = size
                    } catch {
                        throw .corrupt(path: reader.fileURL.path,
                                       detail: "the patch of event \(event.index) does not apply to the state before it: \(error)")
                    }
                    computed = state
                }
                var replaces = false
                if keyframes.contains(event.index),
                   let keyframe = try reader.keyframe(at: event.index, branch: event.branch), keyframe != computed {
                    computed = keyframe
                    replaces = true
                    sizes[event.branch] = nil
                }
                guard let after = computed else {
                    throw .corrupt(path: reader.fileURL.path,
                                   detail: "event \(event.index) starts branch \(event.branch) but has no keyframe")
                }
                states[event.branch] = after
                try body(event, after, replaces, unknown(event))
            }
            after = last.index
        }
    }
}
