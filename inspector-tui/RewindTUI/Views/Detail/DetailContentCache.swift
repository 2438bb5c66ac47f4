import RewindWire

/// Builds the detail pane's content for the selected event and keeps it, so that repainting a frame costs
/// nothing when the selection did not change.
///
/// States and event details read from the data source are kept in small LRU caches (moving the cursor back
/// and forth, or switching tabs, does not seek again). While the timeline follows a live session, the content
/// for the newest event is rebuilt at most every `throttleInterval` seconds: at 10,000 events/s the cursor
/// moves every frame, and seeking a state for each would starve the UI.
///
/// Threading: not thread-safe; use it on the UI thread only (it is owned by `TimelineApp`).
package final class DetailContentCache {
    private let dataSource: any TimelineDataSource
    private let throttleInterval: Double
    private var current: (key: ContentKey, content: DetailContent, builtAt: Double)?
    private var states = LRU<ItemKey, JSONValue>(capacity: 6)
    private var details = LRU<ItemKey, TimelineEvent>(capacity: 16)

    /// A cache reading from `dataSource`.
    package init(dataSource: any TimelineDataSource, throttleInterval: Double = 0.2) {
        self.dataSource = dataSource
        self.throttleInterval = throttleInterval
    }

    /// The content for `model`'s selected session, cursor and tab, at time `now` (seconds, any monotonic origin).
    package func content(for model: TimelineModel, now: Double) -> DetailContent {
        guard let session = model.selectedSession else {
            return DetailContent(title: "", lines: [DetailLine([TextSpan("No session selected.", Theme.dim)])])
        }
        let key = ContentKey(
            session: session.id, index: model.cursor, tab: model.detailTab,
            toggled: model.detailTab == .state ? model.toggledPaths : [],
            limits: model.detailTab == .state ? model.childLimits
                : model.detailTab == .action ? model.actionChildLimits : [:],
            mark: model.detailTab == .diff ? model.mark : nil)
        if let current {
            if current.key == key { return current.content }
            if model.following, current.key.session == key.session, current.key.tab == key.tab,
               current.key.toggled == key.toggled, current.key.limits == key.limits,
               now - current.builtAt < throttleInterval {
                return current.content
            }
        }
        let content = build(key: key, session: session)
        current = (key, content, now)
        return content
    }

    /// The whole value at JSON Pointer `path` of the selected event's state (State tab) or action (Action tab),
    /// uncut: for the value viewer, the pager and copying. Nil when there is none (Diff tab, unknown state).
    package func value(at path: String, for model: TimelineModel) -> JSONValue? {
        guard let session = model.selectedSession, let pointer = try? JSONPointer(path) else { return nil }
        switch model.detailTab {
        case .state:
            if model.cursor > 0,
               (try? row(session: session.id, index: model.cursor))?.stateUnknown != false {
                return nil
            }
            return (try? state(session: session.id, index: model.cursor))?[pointer]
        case .action:
            guard model.cursor > 0 else { return nil }
            return (try? row(session: session.id, index: model.cursor))?.action?[pointer]
        case .diff:
            return nil
        }
    }

    /// Forgets everything read (after a command that changes recorded data, e.g. a skip).
    package func invalidate() {
        current = nil
        states.removeAll()
        details.removeAll()
    }

    // MARK: - Building

    private struct ContentKey: Hashable {
        let session: String
        let index: Int
        let tab: DetailTab
        let toggled: Set<String>
        let limits: [String: Int]
        /// The event compared with (Diff tab, `m`), if any.
        let mark: Int?
    }

    private struct ItemKey: Hashable {
        let session: String
        let index: Int
    }

    private func build(key: ContentKey, session: TimelineSession) -> DetailContent {
        let index = key.index
        var title = "#\(index)"
        do {
            switch key.tab {
            case .action:
                guard index > 0 else {
                    return DetailContent(title: "#0 initial state", lines: ActionDetail.initialStateLines())
                }
                let detail = try row(session: key.session, index: index)
                title = "#\(index) \(detail.displayLabel)"
                return DetailContent(title: title, lines: ActionDetail.lines(detail, sessionStart: session.startedAt,
                                                                             limits: key.limits))
            case .diff:
                if let mark = key.mark, mark != index {
                    return try comparison(session: key.session, from: mark, to: index)
                }
                guard index > 0 else {
                    return DetailContent(title: "#0 initial state", lines: [
                        DetailLine([TextSpan("The initial state has no diff; see the State tab.", Theme.dim)]),
                    ])
                }
                let detail = try row(session: key.session, index: index)
                title = "#\(index) \(detail.displayLabel)"
                if detail.stateUnknown {
                    return DetailContent(title: title, lines: Self.unknownStateLines(detail, tab: .diff))
                }
                let before = detail.patch.map { $0.isEmpty } == false ? try? stateBefore(session: key.session, index: index) : nil
                var lines = DiffTree.lines(patch: detail.patch, before: before)
                if detail.kind == .dropped, detail.label == "dropped" {
                    lines += Self.droppedRowLines(detail)
                }
                return DetailContent(title: title, lines: lines)
            case .state:
                var changed: Set<String> = []
                var detail: TimelineEvent?
                if index > 0 {
                    let read = try row(session: key.session, index: index)
                    title = "#\(index) \(read.displayLabel)"
                    if read.stateUnknown {
                        return DetailContent(title: title, lines: Self.unknownStateLines(read, tab: .state))
                    }
                    detail = read
                } else {
                    title = "#0 initial state"
                }
                let state = try state(session: key.session, index: index)
                if let detail { changed = Self.changedPaths(detail.patch, after: state) }
                var lines: [DetailLine] = []
                if let event = detail, event.branch != 0 {
                    let what = event.recomputes.map { "recomputes #\($0); " } ?? ""
                    lines.append(DetailLine([TextSpan("↳ branch \(event.branch): \(what)the state of this branch after it",
                                                      Theme.dim)]))
                }
                lines += StateTree.lines(state, toggled: key.toggled, changed: changed, limits: key.limits)
                return DetailContent(title: title, lines: lines)
            }
        } catch {
            return DetailContent(title: title, lines: [DetailLine([TextSpan("Cannot read event #\(index): \(error)", Theme.error)])])
        }
    }

    /// The Diff tab while an event is marked: the patch from the marked event's state to the selected one's.
    private func comparison(session: String, from mark: Int, to index: Int) throws -> DetailContent {
        let title = "#\(mark) → #\(index)"
        for end in [mark, index] where end > 0 {
            let detail = try row(session: session, index: end)
            if detail.stateUnknown {
                return DetailContent(title: title, lines: [DetailLine([TextSpan(
                    "The state after #\(end) was not recorded: nothing to compare.", Theme.unknown)])])
            }
        }
        let before = try state(session: session, index: mark)
        let after = try state(session: session, index: index)
        let patch = JSONPatch.diff(from: before, to: after)
        var lines = [DetailLine([TextSpan("comparing the state after #\(mark) (marked, m clears) with the state after "
                                          + "#\(index): \(patch.operations.count) operation"
                                          + (patch.operations.count == 1 ? "" : "s"), Theme.dim)])]
        lines += DiffTree.lines(patch: patch, before: before)
        return DetailContent(title: title, lines: lines)
    }

    /// The pointers a patch wrote, with an array append (`/-`) resolved to the element it created.
    static func changedPaths(_ patch: JSONPatch?, after state: JSONValue) -> Set<String> {
        guard let patch else { return [] }
        var paths: Set<String> = []
        for operation in patch.operations {
            if case .test = operation { continue }
            var tokens = operation.path.tokens
            if tokens.last == "-", let parent = state[JSONPointer(tokens: Array(tokens.dropLast()))],
               case .array(let elements) = parent {
                tokens[tokens.count - 1] = String(elements.count - 1)
            }
            paths.insert(tokens.map { "/" + StateTree.escape($0) }.joined())
        }
        return paths
    }

    /// What the Diff and State tabs say for an event whose state was not recorded (PROTOCOL.md §3.3).
    static func unknownStateLines(_ event: TimelineEvent, tab: DetailTab) -> [DetailLine] {
        var lines = [DetailLine([TextSpan("state unknown: not recorded", Theme.unknown.bolded)])]
        let mark = event.meaning.unknownState
        let cause = mark.map { $0.cause == Int64(event.index) ? "here" : "at #\($0.cause)" } ?? ""
        let why = (mark?.reason.sentence ?? "The recording does not hold this state.") + " (\(cause)), so "
            + (tab == .diff ? "what this event changed is unknown (not \"no change\")."
                            : "the state after it is unknown (not the last state recorded before it).")
        lines.append(DetailLine([TextSpan(why, Theme.dim)]))
        lines.append(DetailLine([TextSpan("The next snapshot row carries the full state again.", Theme.dim)]))
        return lines
    }

    /// The Diff tab's note under an app's `dropped` row: what the rows after it are.
    static func droppedRowLines(_ event: TimelineEvent) -> [DetailLine] {
        var lines = [DetailLine([TextSpan("The actions after this row carry no state: state unknown (not recorded) "
                                              + "until the snapshot that closes the range.", Theme.unknown)])]
        if let lost = event.lostActions {
            lines.append(DetailLine([TextSpan(lost == 1 ? "1 action was lost altogether."
                                                        : "\(Formatting.grouped(lost)) actions were lost altogether.",
                                              Theme.error)]))
        }
        return lines
    }

    private func stateBefore(session: String, index: Int) throws -> JSONValue? {
        try dataSource.stateBefore(session: session, index: index)
    }

    private func state(session: String, index: Int) throws -> JSONValue {
        let key = ItemKey(session: session, index: index)
        if let cached = states[key] { return cached }
        let value = try dataSource.state(session: session, index: index)
        states[key] = value
        return value
    }

    private func row(session: String, index: Int) throws -> TimelineEvent {
        let key = ItemKey(session: session, index: index)
        if let cached = details[key] { return cached }
        let value = try dataSource.event(session: session, index: index)
        details[key] = value
        return value
    }
}
