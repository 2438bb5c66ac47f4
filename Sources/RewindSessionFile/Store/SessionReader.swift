import Foundation
import RewindWire

/// Reads one session — finished, or being recorded right now by this or another process.
///
/// It has its own read-only SQLite connection; each call sees everything committed when it starts (WAL
/// snapshots), and `refresh()` updates `metadata` and `eventCount`. The state at an event is the nearest keyframe
/// at or before it plus the patches after that keyframe; the last state computed is remembered, so stepping
/// forward through a timeline costs one patch per step.
/// Threading: every method may be called from any thread; calls are serialized by an internal lock (why
/// `@unchecked Sendable` is safe: all mutable state, the connection included, is only touched under `lock`).
package final class SessionReader: @unchecked Sendable {
    private let lock = NSLock()
    package let file: SessionFileReader
    private let lockPath: String
    private var cachedMetadata: SessionMetadata
    private var lastState: (index: Int64, branch: Int64, keyframe: Int64, state: JSONValue, size: Int)?
    private var unknownStretches = UnknownStateRanges()
    /// For a file of schema 1 only: its connections, which tell which actions were dispatched before connecting.
    private var schemaOneConnections: SchemaOneConnections

    /// The session's id.
    package let id: SessionID

    /// The session file.
    package let fileURL: URL

    /// The largest state this reader rebuilds from a keyframe and patches, in bytes of compact JSON: a state that
    /// would grow past it (a `copy` bomb recorded by an older daemon) fails with `corrupt`, naming the event, instead
    /// of growing without limit (`JSONPatch.apply(to:size:maxSize:)`, as the daemon bounds what it ingests).
    package let maxStateBytes: Int

    /// The default of ``maxStateBytes``: 64 MiB, also the daemon's own bound on the states it ingests (the default of
    /// `rewind serve --max-message`, which is this), so that a reader rebuilds every state a default recording holds,
    /// and refuses a stored `copy` bomb within seconds.
    package static let defaultMaxStateBytes = 64 << 20

    package init(id: SessionID, fileURL: URL, lockURL: URL, maxStateBytes: Int = SessionReader.defaultMaxStateBytes)
        throws(SessionStoreError) {
        self.id = id
        self.fileURL = fileURL
        self.maxStateBytes = maxStateBytes
        lockPath = lockURL.path
        file = try SessionFileReader(path: fileURL.path)
        cachedMetadata = try file.metadata(lockPath: lockPath)
        schemaOneConnections = SchemaOneConnections(sessionStart: cachedMetadata.startedAt.timeIntervalSince1970)
    }

    deinit {
        file.close()
    }

    /// What is known about the session, as of the last `refresh()` (or opening).
    package var metadata: SessionMetadata {
        lock.withLock { cachedMetadata }
    }

    /// The number of events committed (the highest index, all branches), as of the last `refresh()`.
    package var eventCount: Int64 {
        lock.withLock { cachedMetadata.eventCount }
    }

    /// Re-reads the metadata and the event count, to see events committed since (a session being recorded).
    package func refresh() throws(SessionStoreError) {
        try locked { () throws(SessionStoreError) in
            cachedMetadata = try file.metadata(lockPath: lockPath)
        }
    }

    /// How many of the app's actions never reached the record: the sum of the `actionsLost` of the session's
    /// `dropped` rows labelled `lost` (docs/SESSION-FORMAT.md). Reads every event's row: for listings, not for
    /// anything on the daemon's hot paths.
    package func actionsLost() throws(SessionStoreError) -> Int64 {
        try locked { () throws(SessionStoreError) in try file.actionsLost() }
    }

    /// The greatest of the app's action numbers the main line accounts for: recorded (an event's `app_seq`) or
    /// counted in a `lost` row (its `to`); 0 when none. A reconnect continues the app's numbering from here, so
    /// that actions the app sends again are not recorded twice. Reads every event's row (once per resumed session).
    package func lastAccountedAction() throws(SessionStoreError) -> Int64 {
        try locked { () throws(SessionStoreError) in try file.lastAccountedAction() }
    }

    /// The events of `branch` whose index lies in `range`, in order (fewer when some are on other branches or not
    /// committed yet).
    package func events(_ range: ClosedRange<Int64>, branch: Int64 = 0) throws(SessionStoreError) -> [RecordedEvent] {
        try locked { () throws(SessionStoreError) in try marked(file.events(range, branch: branch)) }
    }

    /// The events of every branch whose index lies in `range`, in order.
    package func eventsOnAllBranches(_ range: ClosedRange<Int64>) throws(SessionStoreError) -> [RecordedEvent] {
        try locked { () throws(SessionStoreError) in try marked(file.events(range, branch: nil)) }
    }

    /// The first `limit` events after index `after`, up to `through`, on the main line (`allBranches` false) or on
    /// every branch, in index order: for walks over a whole session, whose pages follow the rows that exist (never
    /// counting through a gap in the numbering, however large: a damaged file may jump to event 2^62).
    package func events(after: Int64, through: Int64, limit: Int, allBranches: Bool) throws(SessionStoreError) -> [RecordedEvent] {
        try locked { () throws(SessionStoreError) in
            try marked(file.events(after: after, through: through, limit: limit, allBranches: allBranches))
        }
    }

    /// `events` with what they mean: as read for a file of schema 2; for one of schema 1, their state marks worked
    /// out from the stretches of unknown state and "before connect" from the connections' times
    /// (``SchemaOneMeaning``, ``SchemaOneConnections``). Must be called with the lock held.
    private func marked(_ events: [RecordedEvent]) throws(SessionStoreError) -> [RecordedEvent] {
        guard file.schemaVersion < 2, let last = events.last?.index else { return events }
        return try file.snapshot { () throws(SessionStoreError) -> [RecordedEvent] in
            try updateUnknownStretches()
            try schemaOneConnections.update(from: file, through: last)
            return events.map { event in
                var event = event
                if let stretch = unknownStretches.stretch(containing: event.index, branch: event.branch) {
                    event.meaning.unknownState = UnknownStateMark(reason: stretch.why, cause: stretch.cause)
                }
                event.meaning.beforeConnect = schemaOneConnections.dispatchedBeforeConnecting(event)
                return event
            }
        }
    }

    /// The index of the main line's last `action` event at or before `index`, if any (whatever the gaps in the
    /// numbering before it).
    package func lastActionOnMainLine(through index: Int64) throws(SessionStoreError) -> Int64? {
        try locked { () throws(SessionStoreError) in try file.lastActionOnMainLine(through: index) }
    }

    /// The event with this index (whatever its branch).
    package func event(at index: Int64) throws(SessionStoreError) -> RecordedEvent {
        guard let event = try eventsOnAllBranches(index...index).first else {
            throw .eventNotFound(index: index, branch: 0)
        }
        return event
    }

    /// The branch numbers that hold events, 0 (the original timeline) first.
    package func branches() throws(SessionStoreError) -> [Int64] {
        try locked { () throws(SessionStoreError) in [0] + (try file.branches()) }
    }

    /// The state before the first event (keyframe 0).
    package func initialState() throws(SessionStoreError) -> JSONValue {
        try state(at: 0, branch: 0)
    }

    /// The state after event `index`, as recorded: the nearest keyframe plus patches. With `branch` nil (the
    /// default) it is the state of the event's own branch — what its row stands for, a recomputed row's state for
    /// an event of a skip's branch; with a branch given, the state of that branch after its last event at or before
    /// `index`. Index 0 is the initial state. Throws `eventNotFound` for an index beyond the committed events, or
    /// one before a branch's first event. Inside a stretch of unknown state it returns the last state recorded
    /// before the stretch, which the app no longer had: use ``recordedState(after:)`` where that matters.
    package func state(at index: Int64, branch: Int64? = nil) throws(SessionStoreError) -> JSONValue {
        try locked { () throws(SessionStoreError) in
            guard index >= 0 else { throw .eventNotFound(index: index, branch: branch ?? 0) }
            return try file.snapshot { () throws(SessionStoreError) -> JSONValue in
                let own: Int64
                if let branch { own = branch } else { own = try ownBranch(of: index) }
                return try computeState(at: index, branch: own)
            }
        }
    }

    /// The state after event `index` on the event's own branch, or why the recording does not hold it (an
    /// ``UnknownState``: inside a `dropped` range, PROTOCOL.md §3.3, or after the daemon lost track of the app's
    /// state). This is what every reader showing or pushing "the state of this row" uses: the timeline's State
    /// tab, `rewind jump`, export. Index 0 is the initial state. Throws `eventNotFound` beyond the committed events.
    package func recordedState(after index: Int64) throws(SessionStoreError) -> RecordedState {
        try locked { () throws(SessionStoreError) in
            guard index >= 0 else { throw .eventNotFound(index: index, branch: 0) }
            return try file.snapshot { () throws(SessionStoreError) -> RecordedState in
                let branch = try ownBranch(of: index)
                // Index 0 (the initial state) is in a stretch only when the session has no initial state.
                if let unknown = try unknownStretch(containing: index, branch: branch) {
                    return .unknown(unknown)
                }
                return .known(try computeState(at: index, branch: branch))
            }
        }
    }

    /// The stretch of unknown state holding event `index` (on its own branch, or on `branch`), or nil when the
    /// state after it is recorded. Cheap after the first call (the stretches are read once and extended).
    package func unknownState(after index: Int64, branch: Int64? = nil) throws(SessionStoreError) -> UnknownState? {
        try locked { () throws(SessionStoreError) in
            guard index >= 0 else { return nil }
            return try file.snapshot { () throws(SessionStoreError) -> UnknownState? in
                let own: Int64
                if let branch { own = branch } else { own = try ownBranch(of: index) }
                return try unknownStretch(containing: index, branch: own)
            }
        }
    }

    /// Every stretch of unknown state committed so far, in order of branch then index.
    package func unknownStates() throws(SessionStoreError) -> [UnknownState] {
        try locked { () throws(SessionStoreError) in
            try file.snapshot { () throws(SessionStoreError) -> [UnknownState] in
                try updateUnknownStretches()
                return unknownStretches.all
            }
        }
    }

    /// The branch event `index` is on (0 for index 0); throws `eventNotFound` when there is no such event.
    /// Must be called with the lock held.
    private func ownBranch(of index: Int64) throws(SessionStoreError) -> Int64 {
        if index == 0 { return 0 }
        guard let branch = try file.branch(of: index) else {
            if index > (try file.maxIndex()) { throw .eventNotFound(index: index, branch: 0) }
            // A hole in the numbering (not written by Rewind): the main line's state there.
            return 0
        }
        return branch
    }

    /// Must be called with the lock held, inside a snapshot.
    private func unknownStretch(containing index: Int64, branch: Int64) throws(SessionStoreError) -> UnknownState? {
        try updateUnknownStretches()
        return unknownStretches.stretch(containing: index, branch: branch)
    }

    /// Reads the stretches of unknown state committed since the last call (``UnknownStateRanges/update(from:)``).
    /// Must be called with the lock held.
    private func updateUnknownStretches() throws(SessionStoreError) {
        try unknownStretches.update(from: file)
    }

    /// The nearest keyframe of `branch` plus the patches after it. Must be called with the lock held, inside a
    /// snapshot.
    package func computeState(at index: Int64, branch: Int64) throws(SessionStoreError) -> JSONValue {
        if index > 0, index > (try file.maxIndex()) { throw .eventNotFound(index: index, branch: branch) }
        guard let keyframe = try file.keyframe(atOrBefore: index, branch: branch) else {
            throw .eventNotFound(index: index, branch: branch)
        }
        var start = keyframe.index
        var state = keyframe.state
        var size: Int?
        if let cached = lastState, cached.branch == branch, cached.keyframe == keyframe.index,
           cached.index <= index {
            start = cached.index
            state = cached.state
            size = cached.size
        }
        var rebuild = BoundedStateRebuild(path: file.path, limit: maxStateBytes, measured: size)
        try file.forEachPatch(after: start, through: index, branch: branch) {
            (patchIndex, patch) throws(SessionStoreError) in
            try rebuild.apply(patch, to: &state, event: patchIndex)
        }
        lastState = (index, branch, keyframe.index, state, rebuild.measuredSize ?? state.compactSize(limit: maxStateBytes))
        return state
    }

    /// The indices of the events of `branch` (in `range`, or all) whose label matches the regular expression
    /// `pattern` (searched anywhere in the label; events without a label never match). Efficient on long
    /// sessions: one pass over the labels, each distinct label matched once.
    package func eventIndices(
        matchingLabel pattern: String, in range: ClosedRange<Int64>? = nil, branch: Int64 = 0
    ) throws(SessionStoreError) -> [Int64] {
        let regex: NSRegularExpression
        do {
            regex = try NSRegularExpression(pattern: pattern)
        } catch {
            throw .invalidPattern(pattern, reason: "\(error.localizedDescription)")
        }
        return try locked { () throws(SessionStoreError) -> [Int64] in
            var verdicts: [String: Bool] = [:]
            var previous: (label: [UInt8], matches: Bool)?
            var result: [Int64] = []
            try file.forEachLabel(in: range ?? 1...Int64.max, branch: branch) {
                (index, bytes) throws(SessionStoreError) in
                guard let bytes else { return }
                if let previous, SessionReader.same(previous.label, bytes) {
                    if previous.matches { result.append(index) }
                    return
                }
                let label = String(decoding: bytes, as: UTF8.self)
                let matches: Bool
                if let known = verdicts[label] {
                    matches = known
                } else {
                    let whole = NSRange(label.startIndex..<label.endIndex, in: label)
                    matches = regex.firstMatch(in: label, range: whole) != nil
                    verdicts[label] = matches
                }
                previous = (Array(bytes), matches)
                if matches { result.append(index) }
            }
            return result
        }
    }

    /// The indices of the main line's events in `range` whose kind is one of `kinds`, in order. For the rarer kinds
    /// (any but `action`, `snapshot`, `dispatch` and `note`) a few seeks in the `events_notable` index where the file
    /// has it (files written by this build); otherwise, and for the common kinds, one narrow scan of the range.
    /// May be called from any thread.
    package func mainLineIndices(ofKinds kinds: Set<EventKind>, in range: ClosedRange<Int64>)
        throws(SessionStoreError) -> [Int64] {
        guard !kinds.isEmpty else { return [] }
        let listed = kinds.map { "'\($0.rawValue)'" }.sorted().joined(separator: ", ")
        let common: Set<EventKind> = [.action, .snapshot, .dispatch, .note]
        // The partial index's own condition, repeated so that SQLite may use the index (equivalent for rare kinds).
        let notable = kinds.isDisjoint(with: common) ? "\(SessionSchema.notableCondition) AND " : ""
        return try locked { () throws(SessionStoreError) -> [Int64] in
            let statement = try file.database.prepare("""
                SELECT idx FROM events WHERE \(notable)kind IN (\(listed)) AND branch = 0 AND idx BETWEEN ?1 AND ?2
                ORDER BY idx
                """)
            defer { statement.reset() }
            statement.bind(range.lowerBound, at: 1)
            statement.bind(range.upperBound, at: 2)
            return try statement.firstColumnIntegers()
        }
    }

    /// The indices in `range` that have a keyframe (for exporters walking the timeline).
    package func keyframeIndices(in range: ClosedRange<Int64>) throws(SessionStoreError) -> Set<Int64> {
        try locked { () throws(SessionStoreError) in try file.keyframeIndices(in: range) }
    }

    /// The keyframe of `branch` exactly at `index`, if there is one.
    package func keyframe(at index: Int64, branch: Int64) throws(SessionStoreError) -> JSONValue? {
        try locked { () throws(SessionStoreError) in try file.keyframe(at: index, branch: branch) }
    }

    /// True when the bytes are equal (`memcmp`, for the label scan's hot loop).
    private static func same(_ stored: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard stored.count == bytes.count else { return false }
        guard let other = bytes.baseAddress, !stored.isEmpty else { return true }
        return stored.withUnsafeBufferPointer { memcmp($0.baseAddress!, other, bytes.count) == 0 }
    }

    package func locked<Result>(_ body: () throws(SessionStoreError) -> Result) throws(SessionStoreError) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
