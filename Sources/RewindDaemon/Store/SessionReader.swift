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
public final class SessionReader: @unchecked Sendable {
    private let lock = NSLock()
    private let file: SessionFileReader
    private let lockPath: String
    private var cachedMetadata: SessionMetadata
    private var lastState: (index: Int64, branch: Int64, keyframe: Int64, state: JSONValue)?

    /// The session's id.
    public let id: SessionID

    /// The session file.
    public let fileURL: URL

    init(id: SessionID, fileURL: URL, lockURL: URL) throws(SessionStoreError) {
        self.id = id
        self.fileURL = fileURL
        lockPath = lockURL.path
        file = try SessionFileReader(path: fileURL.path)
        cachedMetadata = try file.metadata(lockPath: lockPath)
    }

    deinit {
        file.close()
    }

    /// What is known about the session, as of the last `refresh()` (or opening).
    public var metadata: SessionMetadata {
        lock.withLock { cachedMetadata }
    }

    /// The number of events committed (the highest index, all branches), as of the last `refresh()`.
    public var eventCount: Int64 {
        lock.withLock { cachedMetadata.eventCount }
    }

    /// Re-reads the metadata and the event count, to see events committed since (a session being recorded).
    public func refresh() throws(SessionStoreError) {
        try locked { () throws(SessionStoreError) in
            cachedMetadata = try file.metadata(lockPath: lockPath)
        }
    }

    /// How many of the app's actions never reached the record: the sum of the `actionsLost` of the session's
    /// `dropped` rows labelled `lost` (docs/SESSION-FORMAT.md). Reads every event's row: for listings, not for
    /// anything on the daemon's hot paths.
    public func actionsLost() throws(SessionStoreError) -> Int64 {
        try locked { () throws(SessionStoreError) in try file.actionsLost() }
    }

    /// The events of `branch` whose index lies in `range`, in order (fewer when some are on other branches or not
    /// committed yet).
    public func events(_ range: ClosedRange<Int64>, branch: Int64 = 0) throws(SessionStoreError) -> [RecordedEvent] {
        try locked { () throws(SessionStoreError) in try file.events(range, branch: branch) }
    }

    /// The events of every branch whose index lies in `range`, in order.
    public func eventsOnAllBranches(_ range: ClosedRange<Int64>) throws(SessionStoreError) -> [RecordedEvent] {
        try locked { () throws(SessionStoreError) in try file.events(range, branch: nil) }
    }

    /// The event with this index (whatever its branch).
    public func event(at index: Int64) throws(SessionStoreError) -> RecordedEvent {
        guard let event = try eventsOnAllBranches(index...index).first else {
            throw .eventNotFound(index: index, branch: 0)
        }
        return event
    }

    /// The branch numbers that hold events, 0 (the original timeline) first.
    public func branches() throws(SessionStoreError) -> [Int64] {
        try locked { () throws(SessionStoreError) in [0] + (try file.branches()) }
    }

    /// The state before the first event (keyframe 0).
    public func initialState() throws(SessionStoreError) -> JSONValue {
        try state(at: 0)
    }

    /// The state of `branch` after event `index` (after the last event of that branch at or before `index`):
    /// the nearest keyframe plus patches. Index 0 of branch 0 is the initial state. Throws `eventNotFound` for an
    /// index beyond the committed events, or one before a branch's first event.
    public func state(at index: Int64, branch: Int64 = 0) throws(SessionStoreError) -> JSONValue {
        try locked { () throws(SessionStoreError) in
            guard index >= 0 else { throw .eventNotFound(index: index, branch: branch) }
            return try file.snapshot { () throws(SessionStoreError) -> JSONValue in
                if index > 0, index > (try file.maxIndex()) { throw .eventNotFound(index: index, branch: branch) }
                guard let keyframe = try file.keyframe(atOrBefore: index, branch: branch) else {
                    throw .eventNotFound(index: index, branch: branch)
                }
                var start = keyframe.index
                var state = keyframe.state
                if let cached = lastState, cached.branch == branch, cached.keyframe == keyframe.index,
                   cached.index <= index {
                    start = cached.index
                    state = cached.state
                }
                try file.forEachPatch(after: start, through: index, branch: branch) {
                    (patchIndex, patch) throws(SessionStoreError) in
                    do {
                        try patch.apply(to: &state)
                    } catch {
                        throw .corrupt(path: file.path,
                                       detail: "the patch of event \(patchIndex) does not apply to the state before it: \(error)")
                    }
                }
                lastState = (index, branch, keyframe.index, state)
                return state
            }
        }
    }

    /// The indices of the events of `branch` (in `range`, or all) whose label matches the regular expression
    /// `pattern` (searched anywhere in the label; events without a label never match). Efficient on long
    /// sessions: one pass over the labels, each distinct label matched once.
    public func eventIndices(
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

    /// The indices in `range` that have a keyframe (for exporters walking the timeline).
    func keyframeIndices(in range: ClosedRange<Int64>) throws(SessionStoreError) -> Set<Int64> {
        try locked { () throws(SessionStoreError) in try file.keyframeIndices(in: range) }
    }

    /// The keyframe of `branch` exactly at `index`, if there is one.
    func keyframe(at index: Int64, branch: Int64) throws(SessionStoreError) -> JSONValue? {
        try locked { () throws(SessionStoreError) in try file.keyframe(at: index, branch: branch) }
    }

    /// True when the bytes are equal (`memcmp`, for the label scan's hot loop).
    private static func same(_ stored: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard stored.count == bytes.count else { return false }
        guard let other = bytes.baseAddress, !stored.isEmpty else { return true }
        return stored.withUnsafeBufferPointer { memcmp($0.baseAddress!, other, bytes.count) == 0 }
    }

    private func locked<Result>(_ body: () throws(SessionStoreError) -> Result) throws(SessionStoreError) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
