/// The stretches of unknown state of a session file (``UnknownState``), built from its `dropped`, `error` and
/// full-state events and extended as more events are committed.
///
/// Threading: a value, confined to its owner (`SessionReader` keeps one under its lock).
struct UnknownStateRanges {
    /// The highest event index taken into account.
    private(set) var scannedThrough: Int64 = 0
    /// Closed stretches per branch, in index order.
    private var closed: [Int64: [UnknownState]] = [:]
    /// The stretch still open on each branch.
    private var open: [Int64: UnknownState] = [:]

    /// The branches with an open stretch, each with the index of the row that opened it (its `cause`).
    var openStretches: [(branch: Int64, since: Int64)] {
        open.values.map { ($0.branch, $0.cause) }.sorted { $0.branch < $1.branch }
    }

    /// Takes one event of the file into account; each branch's events must come in index order, after
    /// `scannedThrough` (the reader gives only the rows that can start a stretch and those that end an open one).
    mutating func note(index: Int64, branch: Int64, kind: EventKind, label: String?, detail: String?) {
        scannedThrough = max(scannedThrough, index)
        switch kind {
        case .dropped where label == "initial_unknown":
            // An import of a file without an initial state (docs/SESSION-FORMAT.md, "Redux DevTools format"): the
            // recorded initial state (null) is unknown too, and so is the row's own.
            start(UnknownState(branch: branch, first: 0, last: nil, cause: index,
                               reason: detail ?? "the file has no initial state"))
        case .dropped:
            // The app's announcement (label "dropped"); the recorder's own overflow row (no label) holds a keyframe
            // and leaves the state as it was.
            guard label != nil else { return }
            start(UnknownState(branch: branch, first: index + 1, last: nil, cause: index,
                               reason: detail ?? "the app dropped the states of some actions"))
        case .error where label == "out_of_order":
            start(UnknownState(branch: branch, first: index + 1, last: nil, cause: index,
                               reason: detail ?? "an event came out of order"))
        case .error where label == "patch_failed":
            // Recorded right after the action whose patch failed: that action's state is unknown already.
            start(UnknownState(branch: branch, first: max(1, index - 1), last: nil, cause: index,
                               reason: detail ?? "a patch did not apply"))
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

    /// Records that every event through `index` was taken into account (the last ones may not be state breaks).
    mutating func markScanned(through index: Int64) {
        scannedThrough = max(scannedThrough, index)
    }

    /// The stretch holding event `index` of `branch`, if any.
    func stretch(containing index: Int64, branch: Int64) -> UnknownState? {
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
    var all: [UnknownState] {
        closed.keys.sorted().flatMap { closed[$0] ?? [] } + open.keys.sorted().compactMap { open[$0] }
    }

    private mutating func start(_ stretch: UnknownState) {
        if open[stretch.branch] == nil { open[stretch.branch] = stretch }
    }
}
