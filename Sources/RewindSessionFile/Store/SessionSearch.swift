import Foundation
import RewindWire

/// Finds events in one session file by the label the timeline shows, by the text of their action, or by their
/// main-line state — for the timeline's `/` search and filter, run off the UI thread.
///
/// It has its own read-only connection, so a long search never holds the lock of the `SessionReader` the
/// timeline paints from. Every method works on a bounded index range: a caller covering a long session asks
/// chunk by chunk, which lets it report progress and stop between chunks (cancel).
///
/// Labels: the label a row shows is `coalesce(label, kind)` (a row without a label shows its kind's name). Files
/// written by this build have an index on it (`events_by_label`, docs/SESSION-FORMAT.md): the distinct labels are
/// read with a few index seeks and the next event with a given label is one seek. Older files have none and are
/// read by scanning the range asked for (SQLite does the scan; about 0.1 s per 1,000,000 events on a warm cache).
///
/// Threading: every method may be called from any thread; calls are serialized by an internal lock (all mutable
/// state, the connection included, is only touched under it — why `@unchecked Sendable` is safe).
package final class SessionSearch: @unchecked Sendable {
    private let lock = NSLock()
    private let file: SessionFileReader
    private var statements: [String: SQLiteStatement] = [:]

    /// Whether the file has the label index (written by this build); without it label queries scan.
    package let hasLabelIndex: Bool

    /// The most labels `firstEvent(labelIn:…)` looks up one by one through the index; more go through one query
    /// with an `IN` list.
    package static let seeksPerSearch = 24

    /// The largest state rebuilt from the file's patches, in bytes of compact JSON (``SessionReader/maxStateBytes``).
    package let maxStateBytes: Int

    /// Opens the session file at `path` read-only; states rebuilt from it are at most `maxStateBytes` bytes.
    package init(path: String, maxStateBytes: Int = SessionReader.defaultMaxStateBytes) throws(SessionStoreError) {
        self.maxStateBytes = maxStateBytes
        file = try SessionFileReader(path: path)
        hasLabelIndex = try file.hasIndex(named: SessionSchema.labelIndexName)
    }

    deinit {
        statements = [:]
        file.close()
    }

    /// The highest event index committed now (0 when there is none).
    package func lastIndex() throws(SessionStoreError) -> Int64 {
        try locked { () throws(SessionStoreError) in try file.maxIndex() }
    }

    /// The distinct labels shown by the events in `range` (a label, or the kind's name for a row without one), in
    /// no particular order. With the label index the whole file's labels are read (a superset, by a few index
    /// seeks per distinct label); without it, only the range is scanned.
    package func displayLabels(in range: ClosedRange<Int64>) throws(SessionStoreError) -> [String] {
        try locked { () throws(SessionStoreError) -> [String] in
            if hasLabelIndex {
                // A loose index scan: each step seeks to the next label greater than the last.
                let statement = try prepared("""
                    WITH RECURSIVE labels(label) AS (
                        SELECT min(coalesce(label, kind)) FROM events
                        UNION ALL
                        SELECT (SELECT min(coalesce(label, kind)) FROM events WHERE coalesce(label, kind) > labels.label)
                        FROM labels WHERE labels.label IS NOT NULL
                    )
                    SELECT label FROM labels WHERE label IS NOT NULL
                    """)
                defer { statement.reset() }
                var result: [String] = []
                while try statement.step() {
                    if let label = statement.string(at: 0) { result.append(label) }
                }
                return result
            }
            let statement = try prepared(
                "SELECT DISTINCT coalesce(label, kind) FROM events WHERE idx BETWEEN ?1 AND ?2")
            defer { statement.reset() }
            statement.bind(range.lowerBound, at: 1)
            statement.bind(range.upperBound, at: 2)
            var result: [String] = []
            while try statement.step() {
                if let label = statement.string(at: 0) { result.append(label) }
            }
            return result
        }
    }

    /// The first event in `range` (the lowest index going forward, the highest going backward), on any branch,
    /// whose shown label is one of `labels`; nil when none is.
    package func firstEvent(
        labelIn labels: Set<String>, in range: ClosedRange<Int64>, forward: Bool
    ) throws(SessionStoreError) -> Int64? {
        guard !labels.isEmpty else { return nil }
        return try locked { () throws(SessionStoreError) -> Int64? in
            let aggregate = forward ? "min" : "max"
            if hasLabelIndex && labels.count <= Self.seeksPerSearch {
                // One index seek per label.
                let statement = try prepared(
                    "SELECT \(aggregate)(idx) FROM events WHERE coalesce(label, kind) = ?3 AND idx BETWEEN ?1 AND ?2")
                var best: Int64?
                for label in labels {
                    statement.bind(range.lowerBound, at: 1)
                    statement.bind(range.upperBound, at: 2)
                    statement.bind(label, at: 3)
                    defer { statement.reset() }
                    guard try statement.step(), let found = statement.optionalInt64(at: 0) else { continue }
                    if let current = best {
                        best = forward ? min(current, found) : max(current, found)
                    } else {
                        best = found
                    }
                }
                return best
            }
            let statement = try prepared("""
                SELECT \(aggregate)(idx) FROM events
                WHERE idx BETWEEN ?1 AND ?2 AND coalesce(label, kind) IN (SELECT value FROM json_each(?3))
                """)
            defer { statement.reset() }
            statement.bind(range.lowerBound, at: 1)
            statement.bind(range.upperBound, at: 2)
            statement.bind(JSONValue.array(labels.map { .string($0) }).serialized(), at: 3)
            guard try statement.step() else { return nil }
            return statement.optionalInt64(at: 0)
        }
    }

    /// The indices of the events in `range`, on any branch, whose shown label is one of `labels` and whose kind is
    /// not in `hiddenKinds`, in order (`labels` nil: any label).
    package func eventIndices(
        labelIn labels: Set<String>?, hidingKinds hiddenKinds: Set<EventKind> = [], in range: ClosedRange<Int64>
    ) throws(SessionStoreError) -> [Int64] {
        try locked { () throws(SessionStoreError) -> [Int64] in
            // With labels and the label index: a seek per label, then its rows of the range (a few for a rare
            // label); otherwise a scan of the range.
            let statement = try prepared(labels != nil && hasLabelIndex ? """
                SELECT idx FROM events
                WHERE coalesce(label, kind) IN (SELECT value FROM json_each(?3)) AND idx BETWEEN ?1 AND ?2
                  AND kind NOT IN (SELECT value FROM json_each(?4))
                ORDER BY idx
                """ : """
                SELECT idx FROM events
                WHERE idx BETWEEN ?1 AND ?2
                  AND (?3 IS NULL OR coalesce(label, kind) IN (SELECT value FROM json_each(?3)))
                  AND kind NOT IN (SELECT value FROM json_each(?4))
                ORDER BY idx
                """)
            defer { statement.reset() }
            statement.bind(range.lowerBound, at: 1)
            statement.bind(range.upperBound, at: 2)
            statement.bind(labels.map { JSONValue.array($0.map { .string($0) }).serialized() }, at: 3)
            statement.bind(JSONValue.array(hiddenKinds.map { .string($0.rawValue) }).serialized(), at: 4)
            return try statement.firstColumnIntegers()
        }
    }

    /// The first event in `range` (lowest going forward, highest going backward), on any branch, whose action's
    /// JSON text contains `text`; with `ignoringCase`, ASCII letters match either case. Nil when none does.
    package func firstEvent(
        actionContaining text: String, ignoringCase: Bool, in range: ClosedRange<Int64>, forward: Bool
    ) throws(SessionStoreError) -> Int64? {
        try locked { () throws(SessionStoreError) -> Int64? in
            let haystack = ignoringCase ? "lower(action)" : "action"
            let statement = try prepared("""
                SELECT \(forward ? "min" : "max")(idx) FROM events
                WHERE idx BETWEEN ?1 AND ?2 AND action IS NOT NULL AND instr(\(haystack), ?3) > 0
                """)
            defer { statement.reset() }
            statement.bind(range.lowerBound, at: 1)
            statement.bind(range.upperBound, at: 2)
            statement.bind(ignoringCase ? text.lowercased() : text, at: 3)
            guard try statement.step() else { return nil }
            return statement.optionalInt64(at: 0)
        }
    }

    /// Calls `body` with the main line's state after `range.lowerBound` (index 0: the initial state), then with the
    /// state after each later main-line event of `range` that changed it (a patch, or a full state), in order,
    /// until `body` returns false. States are computed from the nearest keyframe, patch after patch.
    package func forEachMainLineState(
        in range: ClosedRange<Int64>, _ body: (Int64, JSONValue) throws(SessionStoreError) -> Bool
    ) throws(SessionStoreError) {
        try locked { () throws(SessionStoreError) in
            try file.snapshot { () throws(SessionStoreError) in
                // The last keyframe at or before the start: no main-line keyframe lies between it and the start.
                guard let keyframe = try file.keyframe(atOrBefore: range.lowerBound, branch: 0) else {
                    throw .eventNotFound(index: range.lowerBound, branch: 0)
                }
                var state = keyframe.state
                var stop = false
                var rebuild = BoundedStateRebuild(path: file.path, limit: maxStateBytes)
                func apply(after start: Int64, through end: Int64, reporting: Bool) throws(SessionStoreError) {
                    guard end > start else { return }
                    try file.forEachPatch(after: start, through: end, branch: 0) {
                        (index, patch) throws(SessionStoreError) in
                        guard !stop else { return }
                        try rebuild.apply(patch, to: &state, event: index)
                        if reporting { stop = !(try body(index, state)) }
                    }
                }
                try apply(after: keyframe.index, through: range.lowerBound, reporting: false)
                guard try body(range.lowerBound, state) else { return }
                var position = range.lowerBound
                // Main-line keyframes inside the range reset the state (a snapshot row carries no patch).
                for boundary in try mainLineKeyframes(in: (range.lowerBound + 1)...max(range.lowerBound + 1,
                                                                                       range.upperBound))
                    where boundary <= range.upperBound {
                    try apply(after: position, through: boundary - 1, reporting: true)
                    guard !stop, let loaded = try file.keyframe(at: boundary, branch: 0) else { return }
                    state = loaded
                    rebuild.reset()
                    guard try body(boundary, state) else { return }
                    position = boundary
                }
                try apply(after: position, through: range.upperBound, reporting: true)
            }
        }
    }

    /// The indices of the main line's keyframes in `range`, in order. Must be called with the lock held.
    private func mainLineKeyframes(in range: ClosedRange<Int64>) throws(SessionStoreError) -> [Int64] {
        let statement = try prepared("SELECT idx FROM keyframes WHERE branch = 0 AND idx BETWEEN ?1 AND ?2 ORDER BY idx")
        defer { statement.reset() }
        statement.bind(range.lowerBound, at: 1)
        statement.bind(range.upperBound, at: 2)
        return try statement.firstColumnIntegers()
    }

    private func prepared(_ sql: String) throws(SessionStoreError) -> SQLiteStatement {
        if let statement = statements[sql] { return statement }
        let statement = try file.database.prepare(sql)
        statements[sql] = statement
        return statement
    }

    private func locked<Result>(_ body: () throws(SessionStoreError) -> Result) throws(SessionStoreError) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
