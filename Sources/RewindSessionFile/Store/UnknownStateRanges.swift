/// The stretches of unknown state of a session file of schema 1, worked out from its `dropped`, `error` and
/// full-state rows' kinds and labels (files of schema 2 state them row by row: ``RowMeaning``), and extended as more
/// events are committed. Part of the migration reader (``SchemaOneMeaning``).
///
/// Threading: a value, confined to its owner (`SessionReader` keeps one under its lock).
package struct UnknownStateRanges {
    /// The highest event index taken into account.
    package private(set) var scannedThrough: Int64 = 0
    /// Closed stretches per branch, in index order.
    private var closed: [Int64: [UnknownState]] = [:]
    /// The stretch still open on each branch.
    private var open: [Int64: UnknownState] = [:]

    /// The branches with an open stretch, each with the index of the row that opened it (its `cause`).
    package var openStretches: [(branch: Int64, since: Int64)] {
        open.values.map { ($0.branch, $0.cause) }.sorted { $0.branch < $1.branch }
    }

    /// Reads the rows of `file` committed since the last call.
    ///
    /// Schema 2: the rows say whether their state is unknown; a stretch is the rows of one cause, found through the
    /// `events_unknown` index. Schema 1 (the migration reader): the rows that can start a stretch are found through
    /// the label index, and rows are read one after another only inside an open stretch, up to the row that ends it
    /// (a full state). Either way a session of a million events with a couple of thousand short stretches costs a
    /// couple of thousand short reads, not a scan of every row.
    package mutating func update(from file: SessionFileReader) throws(SessionStoreError) {
        let last = try file.maxIndex()
        let scanned = scannedThrough
        guard last > scanned else { return }
        guard file.schemaVersion < 2 else {
            for run in try file.unknownRuns(after: scanned, through: last) {
                noteStated(branch: run.branch, cause: run.cause, first: run.first, lastRow: run.last, why: run.reason,
                           reason: (try? file.detail(of: run.cause)) ?? "the state is unknown (\(run.reason.rawValue))")
            }
            for open in statedOpen where try file.firstRow(after: open.lastRow, through: last, branch: open.branch) != nil {
                closeStated(branch: open.branch)
            }
            markScanned(through: last)
            return
        }
        /// Ends the open stretches whose full state comes in (`from`, `before`).
        func closeOpenStretches(from: Int64, before: Int64) throws(SessionStoreError) {
            for (branch, since) in openStretches {
                guard let restore = try file.firstStateRestore(after: max(from, since), before: before, branch: branch)
                else { continue }
                note(index: restore.index, branch: branch, kind: restore.kind, label: restore.label,
                     detail: restore.detail)
            }
        }
        var cursor = scanned
        for cause in try file.stateBreakCauses(after: scanned, through: last) {
            try closeOpenStretches(from: cursor, before: cause.index)
            note(index: cause.index, branch: cause.branch, kind: cause.kind, label: cause.label, detail: cause.detail)
            cursor = cause.index
        }
        try closeOpenStretches(from: cursor, before: last + 1)
        markScanned(through: last)
    }

    /// Takes one event of the file into account; each branch's events must come in index order, after
    /// `scannedThrough` (the reader gives only the rows that can start a stretch and those that end an open one).
    package mutating func note(index: Int64, branch: Int64, kind: EventKind, label: String?, detail: String?) {
        scannedThrough = max(scannedThrough, index)
        switch kind {
        case .dropped where label == "initial_unknown":
            // An import of a file without an initial state (docs/SESSION-FORMAT.md, "Redux DevTools format"): the
            // recorded initial state (null) is unknown too, and so is the row's own.
            start(UnknownState(branch: branch, first: 0, last: nil, cause: index,
                               reason: detail ?? "the file has no initial state", why: .initialUnknown))
        case .dropped:
            // The app's announcement (label "dropped"); the recorder's own overflow row (no label) holds a keyframe
            // and leaves the state as it was.
            guard label != nil else { return }
            start(UnknownState(branch: branch, first: index + 1, last: nil, cause: index,
                               reason: detail ?? "the app dropped the states of some actions",
                               why: label == "lost" ? .lost : .dropped))
        case .error where label == "out_of_order":
            start(UnknownState(branch: branch, first: index + 1, last: nil, cause: index,
                               reason: detail ?? "an event came out of order", why: .outOfOrder))
        case .error where label == "patch_failed":
            // Recorded right after the action whose patch failed: that action's state is unknown already.
            start(UnknownState(branch: branch, first: max(1, index - 1), last: nil, cause: index,
                               reason: detail ?? "a patch did not apply", why: .patchFailed))
        case .snapshot, .jump, .replay, .reconnect:
            guard var stretch = open[branch], index >= stretch.first else { return }
            open[branch] = nil
            // A full state right where the stretch would start leaves nothing unknown.
            guard index > stretch.first else { return }
            stretch.last = index - 1
            closed[branch, default: []].append(stretch)
        default:
            return
        }
    }

    /// The last row of each open stretch read so far (schema 2, where the rows say they are unknown).
    private var statedLastRows: [Int64: Int64] = [:]

    /// The open stretches of schema 2, each with its last row read so far.
    package var statedOpen: [(branch: Int64, lastRow: Int64)] {
        statedLastRows.map { ($0.key, $0.value) }.sorted { $0.branch < $1.branch }
    }

    /// Schema 2: rows `first`…`lastRow` of `branch` say their state is unknown for `why`, made so by row `cause`
    /// (`reason` is that row's text). Rows of a stretch already open extend it; a new cause on a branch closes the
    /// stretch before it at its last row.
    package mutating func noteStated(branch: Int64, cause: Int64, first: Int64, lastRow: Int64, why: UnknownStateReason,
                             reason: @autoclosure () -> String) {
        if let stretch = open[branch], stretch.cause == cause {
            statedLastRows[branch] = max(lastRow, statedLastRows[branch] ?? lastRow)
            return
        }
        closeStated(branch: branch)
        open[branch] = UnknownState(branch: branch, first: why == .initialUnknown ? 0 : first, last: nil, cause: cause,
                                    reason: reason(), why: why)
        statedLastRows[branch] = lastRow
    }

    /// Schema 2: a row of `branch` whose state is known follows the open stretch: it ends at its last row.
    package mutating func closeStated(branch: Int64) {
        guard var stretch = open[branch], let lastRow = statedLastRows[branch] else { return }
        open[branch] = nil
        statedLastRows[branch] = nil
        stretch.last = lastRow
        closed[branch, default: []].append(stretch)
    }

    /// Records that every event through `index` was taken into account (the last ones may not be state breaks).
    package mutating func markScanned(through index: Int64) {
        scannedThrough = max(scannedThrough, index)
    }

    /// The stretch holding event `index` of `branch`, if any.
    package func stretch(containing index: Int64, branch: Int64) -> UnknownState? {
        if let stretch = open[branch], stretch.contains(index, branch: branch) { return stretch }
        guard let list = closed[branch] else { return nil }
        var low = 0, high = list.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let stretch = list[middle]
            if index < stretch.first {
                high = middle - 1
            } else if let last = stretch.last, index > last {
                low = middle + 1
            } else {
                return stretch
            }
        }
        return nil
    }

    /// Every stretch, closed ones first by branch, then the open ones.
    package var all: [UnknownState] {
        closed.keys.sorted().flatMap { closed[$0] ?? [] } + open.keys.sorted().compactMap { open[$0] }
    }

    private mutating func start(_ stretch: UnknownState) {
        if open[stretch.branch] == nil { open[stretch.branch] = stretch }
    }
}
