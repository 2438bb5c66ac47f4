import Foundation
import RewindWire

/// State history ("blame"): which events changed the value at a JSON Pointer.
///
/// Files written with the path index (docs/SESSION-FORMAT.md, "The path index") answer from it: a few index
/// lookups, whatever the session's length. Events the index does not cover (a file written before it existed)
/// are found by scanning their patches, with a text pre-filter in SQL so that only likely patches are parsed.
/// Events that put a whole state in place (they have a keyframe and no patch) are few: for each, the value at the
/// pointer is compared with the one before it.
extension SessionReader {
    /// The events of the state's lineage on `branch` up to `through` (default: the last event) that changed the
    /// value at `pointer`, newest first; at most `limit` of them (nil: all). The lineage of a branch N > 0 is its
    /// own events after the main line's events up to the state it was recomputed from (PROTOCOL.md §4.4).
    /// Reads the file's committed events; may be called from any thread (not the TUI's input thread for long
    /// sessions without an index: the scan then takes seconds).
    package func history(
        of pointer: JSONPointer, through: Int64? = nil, branch: Int64 = 0, limit: Int? = nil
    ) throws(SessionStoreError) -> [StateChange] {
        let target = pointer.description
        let plan = try locked { () throws(SessionStoreError) -> HistoryPlan in
            try file.snapshot { () throws(SessionStoreError) -> HistoryPlan in
                try planHistory(of: pointer, text: target, through: through, branch: branch, limit: limit)
            }
        }
        var found: [Int64: StateChange] = [:]
        for change in plan.patchChanges { found[change.index] = change }
        // With a limit, a replacement older than the limit-th newest change by patch cannot be in the answer.
        var threshold = Int64.min
        if let limit, limit > 0, found.count >= limit {
            threshold = found.keys.sorted(by: >)[limit - 1]
        }
        for candidate in plan.replacements.sorted(by: { $0.index > $1.index }) where found[candidate.index] == nil {
            if candidate.index < threshold { break }
            let after = try state(at: candidate.index, branch: candidate.branch)[pointer]
            let before: JSONValue?
            if candidate.branch != 0, candidate.index == plan.branchStart {
                before = try state(at: plan.branchPoint, branch: 0)[pointer]
            } else {
                before = try state(at: candidate.index - 1, branch: candidate.branch)[pointer]
            }
            if after != before {
                found[candidate.index] = StateChange(index: candidate.index, branch: candidate.branch, cause: .replacedState)
            }
        }
        let newestFirst = found.values.sorted { $0.index > $1.index }
        if let limit { return Array(newestFirst.prefix(limit)) }
        return newestFirst
    }

    /// What `history` reads under the lock: the changes by patch, and the state replacements to compare.
    private struct HistoryPlan {
        var patchChanges: [StateChange] = []
        var replacements: [(index: Int64, branch: Int64)] = []
        /// For a branch N > 0: its first event, and the main-line event whose state it starts from.
        var branchStart: Int64 = 0
        var branchPoint: Int64 = 0
    }

    /// One stretch of the lineage: events of `branch` with index in `range`.
    private struct LineageStretch {
        var branch: Int64
        var range: ClosedRange<Int64>
    }

    /// Must be called with the lock held, inside a snapshot.
    private func planHistory(
        of pointer: JSONPointer, text: String, through: Int64?, branch: Int64, limit: Int?
    ) throws(SessionStoreError) -> HistoryPlan {
        var plan = HistoryPlan()
        let last = min(through ?? Int64.max, try file.maxIndex())
        guard last >= 1 else { return plan }
        var lineage: [LineageStretch] = []
        if branch == 0 {
            lineage.append(LineageStretch(branch: 0, range: 1...last))
        } else {
            guard let start = try firstEvent(ofBranch: branch), start.index <= last else {
                throw .eventNotFound(index: last, branch: branch)
            }
            plan.branchStart = start.index
            plan.branchPoint = start.branchPoint
            lineage.append(LineageStretch(branch: branch, range: start.index...last))
            if start.branchPoint >= 1 { lineage.append(LineageStretch(branch: 0, range: 1...start.branchPoint)) }
        }
        let meta = try file.meta()
        let indexedFrom = meta[SessionSchema.MetaKey.pathsIndexedFrom.rawValue].flatMap { Int64($0) }
        let indexedThrough = meta[SessionSchema.MetaKey.pathsIndexedThrough.rawValue].flatMap { Int64($0) } ?? 0
        var seen = Set<Int64>()
        for stretch in lineage {
            var scanned: [ClosedRange<Int64>] = [stretch.range]
            if let indexedFrom, indexedFrom <= indexedThrough {
                let low = max(stretch.range.lowerBound, indexedFrom)
                let high = min(stretch.range.upperBound, indexedThrough)
                if low <= high {
                    for index in try indexedChanges(of: pointer, text: text, branch: stretch.branch, range: low...high,
                                                    limit: limit) where seen.insert(index).inserted {
                        plan.patchChanges.append(StateChange(index: index, branch: stretch.branch, cause: .patch))
                    }
                    scanned = []
                    if stretch.range.lowerBound < low { scanned.append(stretch.range.lowerBound...(low - 1)) }
                    if high < stretch.range.upperBound { scanned.append((high + 1)...stretch.range.upperBound) }
                }
            }
            for range in scanned {
                for index in try scannedChanges(of: pointer, text: text, branch: stretch.branch, range: range)
                where seen.insert(index).inserted {
                    plan.patchChanges.append(StateChange(index: index, branch: stretch.branch, cause: .patch))
                }
            }
            plan.replacements += try stateReplacements(branch: stretch.branch, range: stretch.range)
                .map { (index: $0, branch: stretch.branch) }
        }
        return plan
    }

    /// The first event of branch N > 0 and the main-line event its state was recomputed from (its row's
    /// ``RowMeaning/branchFrom``; 0 when the row does not say).
    private func firstEvent(ofBranch branch: Int64) throws(SessionStoreError) -> (index: Int64, branchPoint: Int64)? {
        let statement = try file.database.prepare(
            "SELECT idx FROM events WHERE branch = ?1 AND branch <> 0 ORDER BY idx LIMIT 1")
        statement.bind(branch, at: 1)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        let index = statement.int64(at: 0)
        let point = try file.events(index...index, branch: nil).first?.meaning.branchFrom ?? 0
        return (index, max(0, min(point, index - 1)))
    }

    /// The events in `range` of `branch` whose indexed touches affect `pointer` (see `PatchTouches.affect`).
    private func indexedChanges(
        of pointer: JSONPointer, text: String, branch: Int64, range: ClosedRange<Int64>, limit: Int?
    ) throws(SessionStoreError) -> [Int64] {
        let order = limit.map { " ORDER BY idx DESC LIMIT \($0)" } ?? ""
        var result: [Int64] = []
        func collect(_ statement: SQLiteStatement) throws(SessionStoreError) {
            defer { statement.reset() }
            result += try statement.firstColumnIntegers()
        }
        if pointer.isRoot {
            let everything = try file.database.prepare("""
                SELECT idx FROM events WHERE branch = ?1 AND idx BETWEEN ?2 AND ?3
                AND patch IS NOT NULL AND patch <> '[]'
                """ + order)
            everything.bind(branch, at: 1)
            everything.bind(range.lowerBound, at: 2)
            everything.bind(range.upperBound, at: 3)
            try collect(everything)
            return result
        }
        // The location itself and each ancestor, root included.
        let exact = try file.database.prepare(
            """
            SELECT c.idx FROM index_paths p JOIN path_changes c ON c.path_id = p.id
            WHERE p.path = ?1 AND c.branch = ?2 AND c.idx BETWEEN ?3 AND ?4
            """ + order.replacingOccurrences(of: "idx", with: "c.idx"))
        var ancestor = JSONPointer.root
        var located: [String] = [""]
        for token in pointer.tokens {
            ancestor = ancestor.appending(token)
            located.append(ancestor.description)
        }
        for path in located {
            exact.bind(path, at: 1)
            exact.bind(branch, at: 2)
            exact.bind(range.lowerBound, at: 3)
            exact.bind(range.upperBound, at: 4)
            try collect(exact)
        }
        // Everything under it: pointer texts from "P/" up to (not including) "P0" ('0' follows '/').
        let under = try file.database.prepare("""
            SELECT c.idx FROM index_paths p JOIN path_changes c ON c.path_id = p.id
            WHERE p.path >= ?1 AND p.path < ?2 AND c.branch = ?3 AND c.idx BETWEEN ?4 AND ?5
            """ + order.replacingOccurrences(of: "idx", with: "c.idx"))
        under.bind(text + "/", at: 1)
        under.bind(text + "0", at: 2)
        under.bind(branch, at: 3)
        under.bind(range.lowerBound, at: 4)
        under.bind(range.upperBound, at: 5)
        try collect(under)
        // Insertions and removals at or before one of its array positions.
        let shifts = try file.database.prepare("""
            SELECT r.idx FROM index_paths p JOIN array_reshapes r ON r.parent_id = p.id
            WHERE p.path = ?1 AND r.branch = ?2 AND r.first <= ?3 AND r.last >= ?3 AND r.idx BETWEEN ?4 AND ?5
            """ + order.replacingOccurrences(of: "idx", with: "r.idx"))
        var parent = JSONPointer.root
        for token in pointer.tokens {
            if let position = JSONPointer.arrayIndex(token) {
                shifts.bind(parent.description, at: 1)
                shifts.bind(branch, at: 2)
                shifts.bind(Int64(position), at: 3)
                shifts.bind(range.lowerBound, at: 4)
                shifts.bind(range.upperBound, at: 5)
                try collect(shifts)
            }
            parent = parent.appending(token)
        }
        return result
    }

    /// The events in `range` of `branch` whose patches affect `pointer`, found by reading the patches (for
    /// events the path index does not cover). A patch that touches the pointer names its first token (or is
    /// an operation on the root), so SQL skips the others before any is parsed. When the pointer goes through
    /// an array, the part of the state under its first token is kept up to date from the patches read (and the
    /// whole states put in place), so that insertions and removals are placed as exactly as the index places
    /// them. Must be called with the lock held, inside a snapshot.
    private func scannedChanges(
        of pointer: JSONPointer, text: String, branch: Int64, range: ClosedRange<Int64>
    ) throws(SessionStoreError) -> [Int64] {
        var needle: String?
        if let first = pointer.tokens.first {
            let escaped = JSONPointer.escape(first)
            let plain = escaped.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"")
                && $0 != UInt8(ascii: "\\") }
            if plain { needle = "\"/" + escaped }
        }
        let throughArray = pointer.tokens.contains { JSONPointer.arrayIndex($0) != nil }
        var tracked: JSONValue?
        var trackedRebuild = BoundedStateRebuild(path: fileURL.path, limit: maxStateBytes)
        if throughArray {
            tracked = (try? computeState(at: range.lowerBound - 1, branch: branch))
                ?? (try? computeState(at: range.lowerBound, branch: branch))
        }
        let statement = try file.database.prepare("""
            SELECT e.idx, e.patch, k.state FROM events e LEFT JOIN keyframes k ON k.branch = e.branch AND k.idx = e.idx
            WHERE e.branch = ?1 AND e.idx BETWEEN ?2 AND ?3
            AND ((e.patch IS NOT NULL AND (?4 IS NULL OR instr(e.patch, '"path":""') > 0 OR instr(e.patch, ?4) > 0))
                 OR (?5 AND e.patch IS NULL AND k.state IS NOT NULL))
            ORDER BY e.idx
            """)
        defer { statement.reset() }
        statement.bind(branch, at: 1)
        statement.bind(range.lowerBound, at: 2)
        statement.bind(range.upperBound, at: 3)
        statement.bind(needle, at: 4)
        statement.bind(Int64(throughArray ? 1 : 0), at: 5)
        var result: [Int64] = []
        while try statement.step() {
            let index = statement.int64(at: 0)
            let parsed: JSONPatch?? = statement.withBytes(at: 1) { bytes -> JSONPatch?? in
                guard let bytes else { return .some(nil) }
                guard let json = try? JSONValue(parsing: bytes, limits: SessionFileReader.storedJSONLimits) else {
                    return nil
                }
                return try? JSONPatch(json: json)
            }
            guard let parsed else {
                throw .corrupt(path: file.path, detail: "the patch of event \(index) is not a valid JSON Patch")
            }
            guard let patch = parsed else {
                // A whole state put in place: the tracked part starts again from it.
                tracked = statement.withBytes(at: 2) { bytes in
                    bytes.flatMap { try? JSONValue(parsing: $0, limits: SessionFileReader.storedJSONLimits) }
                }
                trackedRebuild.reset()
                continue
            }
            var touches: PatchTouches
            if throughArray, let first = pointer.tokens.first {
                // Only the operations on the tracked part apply to it (the rest of the state may be stale).
                let relevant = JSONPatch(patch.operations.filter { operation in
                    var pointers = [operation.path]
                    if case .move(let from, _) = operation { pointers.append(from) }
                    return pointers.contains { $0.isRoot || $0.tokens.first == first }
                })
                if var state = tracked {
                    // Bounded as every rebuilt state is: past the bound the tracked part is let go, not grown.
                    if (try? trackedRebuild.apply(relevant, to: &state, event: index)) != nil {
                        tracked = state
                    } else {
                        tracked = nil
                        trackedRebuild.reset()
                    }
                }
                touches = PatchTouches(patch, stateAfter: tracked)
            } else {
                touches = PatchTouches(patch)
            }
            if pointer.isRoot ? !touches.paths.isEmpty : touches.affect(pointer, text: text) { result.append(index) }
        }
        return result
    }

    /// The events in `range` of `branch` that put a whole state in place: a keyframe and no patch.
    private func stateReplacements(branch: Int64, range: ClosedRange<Int64>) throws(SessionStoreError) -> [Int64] {
        let statement = try file.database.prepare("""
            SELECT k.idx FROM keyframes k JOIN events e ON e.idx = k.idx
            WHERE k.branch = ?1 AND k.idx BETWEEN ?2 AND ?3 AND k.idx > 0 AND e.patch IS NULL
            """)
        defer { statement.reset() }
        statement.bind(branch, at: 1)
        statement.bind(range.lowerBound, at: 2)
        statement.bind(range.upperBound, at: 3)
        return try statement.firstColumnIntegers()
    }
}
