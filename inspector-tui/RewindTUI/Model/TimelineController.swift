import Foundation
import RewindSessionFile
import RewindWire

/// Turns keys into changes of the `TimelineModel` and into `TimelineCommand`s for the app to execute.
///
/// Deterministic: given the same data and keys it produces the same model and commands, and it performs no
/// side effects besides reading the data source (for counts, searches and the detail pane's lines) — so the
/// whole keyboard behaviour is testable without a terminal. `TimelineApp` runs the commands and reports their
/// outcome back with `report(_:)`.
///
/// Threading: a value type used on the UI thread; it calls the data source from that thread.
package struct TimelineController {
    /// The UI state.
    package private(set) var model: TimelineModel
    /// Where sessions, rows, details and states come from.
    package let dataSource: any TimelineDataSource
    /// The detail pane's content (shared with the renderer so that both see the same lines).
    package let detailContent: DetailContentCache
    private let clock: () -> Double
    private let preferredSessionID: String?
    /// True while the selection is one the timeline picked for want of a live session (none was live when it
    /// started: `make demo` run again, with the last run's sessions saved) and the user has not pressed a key since:
    /// the first session that goes live is then selected.
    private var waitingForLiveSession = false

    /// A controller over `dataSource`.
    /// - Parameters:
    ///   - initialSession: the session to select first (e.g. the one `rewind open` names); otherwise the first
    ///     live session, or the first listed.
    ///   - detailContent: the detail cache to share with the renderer (a new one by default).
    ///   - clock: seconds on a monotonic clock (the detail cache's throttling); injectable for tests.
    package init(
        dataSource: any TimelineDataSource,
        initialSession: String? = nil,
        detailContent: DetailContentCache? = nil,
        clock: @escaping () -> Double = MonotonicClock.now
    ) {
        self.dataSource = dataSource
        self.detailContent = detailContent ?? DetailContentCache(dataSource: dataSource)
        self.clock = clock
        preferredSessionID = initialSession
        model = TimelineModel()
        model.openedSessionID = initialSession
    }

    // MARK: - Data and size

    /// Reads the header and the sessions again (live sessions listed first), keeps the selection (or picks one:
    /// the preferred session, else the first live one, else the first listed — until a session goes live, when
    /// no key has been pressed since), follows new events when following, and keeps the cursor on screen. Call
    /// before each frame.
    package mutating func refresh() {
        model.header = dataSource.header()
        model.deletesSessions = dataSource.deletesSessions
        model.dataDirectory = dataSource.dataDirectory?.path
        // Live sessions first (in the source's order), then the others.
        let listed = dataSource.sessions()
        let sessions = listed.filter { $0.status == .live } + listed.filter { $0.status != .live }
        if model.paused {
            // Hold the events recorded since the pause back: each session keeps the count it had then
            // (sessions that started since show none yet); statuses stay current.
            var held = 0
            model.sessions = sessions.map { session in
                var shown = session
                shown.eventCount = min(session.eventCount, model.pausedCounts[session.id] ?? 0)
                held += session.eventCount - shown.eventCount
                return shown
            }
            model.heldEvents = held
        } else {
            model.sessions = sessions
            model.heldEvents = 0
        }
        if waitingForLiveSession, let live = model.sessions.first(where: { $0.status == .live }) {
            select(live)
        }
        if model.selectedSession == nil {
            if let preferred = model.sessions.first(where: { $0.id == preferredSessionID })
                ?? model.sessions.first(where: { $0.status == .live })
                ?? model.sessions.first {
                select(preferred)
                waitingForLiveSession = preferred.id != preferredSessionID && preferred.status != .live
            } else {
                model.selectedSessionID = nil
            }
        }
        if model.following {
            model.cursor = model.lastRowIndex
        }
        model.cursor = min(max(0, model.cursor), model.eventCount)
        ensureCursorVisible()
    }

    /// Records the terminal size (the layout, and so page sizes, depend on it).
    package mutating func resize(width: Int, height: Int) {
        model.screenWidth = width
        model.screenHeight = height
        if case .viewer(var viewer) = model.dialog {
            viewer.rewrap(width: ValueViewerOverlay.textWidth(screenWidth: width))
            model.dialog = .viewer(viewer)
        }
        ensureCursorVisible()
        ensureDetailCursorVisible()
    }

    /// Shows `message` in the status line until the next key (the outcome of a command).
    package mutating func report(_ message: StatusMessage) {
        model.status = message
    }

    /// Shows what the command running in the background is doing (nil: none is running). Unlike `report(_:)`,
    /// keys do not clear it.
    package mutating func showActivity(_ message: StatusMessage?) {
        model.activity = message
    }

    /// Makes `id` the selected session (as moving in the sessions pane does).
    package mutating func selectSession(id: String) {
        if let session = model.sessions.first(where: { $0.id == id }) {
            select(session)
        }
    }

    // MARK: - Keys

    /// Applies one key and returns the commands it asks for (usually none).
    package mutating func handle(_ key: Key) -> [TimelineCommand] {
        if key == .resize { return [] }
        waitingForLiveSession = false
        if case .mouse(let event) = key {
            handleMouse(event)
            return []
        }
        model.status = nil
        if let dialog = model.dialog {
            return handleDialog(dialog, key)
        }
        switch key {
        case .character("?"), .function(1):
            model.dialog = .help
            model.helpScroll = 0
        case .character("q"), .control("c"):
            return requestQuit()
        case .control("l"):
            return [.redraw]
        case .tab:
            model.focus = model.focus.next
        case .backTab:
            model.focus = model.focus.previous
        case .character("t"):
            model.timeFormat = model.timeFormat.toggled
            model.status = StatusMessage(model.timeFormat == .relative ? "times relative to the session start" : "wall-clock times")
        case .character("f"):
            model.following = true
            model.cursor = model.lastRowIndex
            ensureCursorVisible()
            if model.paused {
                model.status = StatusMessage("paused: at the last event shown; p resumes following live events")
            } else if model.selectedSession?.status == .live {
                model.status = StatusMessage("following live events")
            } else {
                model.status = StatusMessage("at the last event: this session has ended, nothing more will arrive")
            }
        case .character("/"):
            model.dialog = .prompt(PromptState(kind: .filter, history: model.searchHistory))
            model.filterPreview = FilterPreview(of: model)
        case .character("M"):
            toggleMap()
        case .character("C"):
            cycleChart()
        case .character(":"):
            guard requireSession() != nil else { return [] }
            model.dialog = .prompt(PromptState(kind: .goTo))
        case .character("S"):
            guard let session = requireSession() else { return [] }
            model.dialog = .stats(StatsViewState(session: session.id, eventCount: session.eventCount))
            return [.computeStats(session: session.id, count: session.eventCount)]
        case .character("n"):
            return searchAgain(forward: true)
        case .character("N"):
            return searchAgain(forward: false)
        case .escape:
            if model.search != nil { return [.cancelSearch] }
            if model.filter != nil || model.searchQuery != nil || model.hiding != nil {
                model.filter = nil
                model.searchQuery = nil
                clearHiding()
                model.status = StatusMessage("filter cleared")
            }
        case .character("d"):
            guard let session = requireConnectedApp(offering: [WireCapability.dispatch], for: "dispatch") else { return [] }
            let text = recordedAction(session) ?? (model.lastDispatch.isEmpty ? nearestRecordedAction(session) : nil)
            model.dialog = .prompt(PromptState(kind: .dispatch, text: text ?? model.lastDispatch))
        case .character("p"):
            togglePause()
        case .character("m"):
            toggleMark()
        case .character("<"), .character(","):
            return step(by: -1)
        case .character(">"), .character("."):
            return step(by: 1)
        case .character("s"):
            guard let session = requireConnectedApp(offering: [WireCapability.replay, WireCapability.jump], for: "skip") else { return [] }
            guard model.cursor > 0 else {
                model.status = StatusMessage("the initial state is not an action: nothing to skip", isError: true)
                return []
            }
            if let refusal = refusal(skipping: model.cursor, in: session) {
                model.status = refusal
                return []
            }
            return [.skip(session: session.id, index: model.cursor)]
        case .character("r"):
            guard let session = requireConnectedApp(offering: [WireCapability.replay], for: "replay") else { return [] }
            if let refusal = refusal(replayingFrom: model.cursor, in: session) {
                model.status = refusal
                return []
            }
            return [.replay(session: session.id, from: model.cursor)]
        case .character("e"):
            guard let session = requireSession() else { return [] }
            return [.export(session: session.id)]
        case .character("["):
            selectTab(model.detailTab.previous)
        case .character("]"):
            selectTab(model.detailTab.next)
        case .character("1"):
            selectTab(.action)
        case .character("2"):
            selectTab(.diff)
        case .character("3"):
            selectTab(.state)
        default:
            switch model.focus {
            case .sessions: handleSessionsKey(key)
            case .timeline: return handleTimelineKey(key)
            case .detail: return handleDetailKey(key)
            }
        }
        return []
    }

    // MARK: - Panes

    private mutating func handleSessionsKey(_ key: Key) {
        let position = model.selectedSessionPosition ?? 0
        let last = model.sessions.count - 1
        guard last >= 0 else { return }
        var target = position
        switch key {
        case .up, .character("k"): target = position - 1
        case .down, .character("j"): target = position + 1
        case .pageUp, .control("b"): target = position - model.layout.sessions.height
        case .pageDown, .control("f"): target = position + model.layout.sessions.height
        case .home, .character("g"): target = 0
        case .end, .character("G"): target = last
        case .enter, .right, .character("l"):
            model.focus = .timeline
            return
        case .character("x"), .delete:
            requestDeletion()
            return
        default: return
        }
        target = min(max(0, target), last)
        if target != position || model.selectedSession == nil {
            select(model.sessions[target])
        }
    }

    /// `x` / Delete in the sessions pane: asks "Delete session …? y/n" on the status line, or says why the
    /// selected session cannot be deleted here (`TimelineModel.deletionRefusal(for:)`).
    private mutating func requestDeletion() {
        guard let session = requireSession() else { return }
        if let refusal = model.deletionRefusal(for: session) {
            model.status = refusal
            return
        }
        model.dialog = .confirmDelete(session)
    }

    /// The deletion of session `id` (confirmed with `y`) finished with `outcome`: the sentence for the status
    /// line, or the error saying why nothing was deleted. Reads the list again; when the session is gone from it
    /// and was selected, selects its neighbour (the session listed after it, or before it when it was the last).
    package mutating func finishDeletion(of id: String, outcome: Result<String, any Error>) {
        let wasSelected = model.selectedSessionID == id
        let position = model.sessions.firstIndex { $0.id == id }
        refresh()
        if wasSelected, let position, !model.sessions.isEmpty, !model.sessions.contains(where: { $0.id == id }) {
            select(model.sessions[min(position, model.sessions.count - 1)])
        }
        switch outcome {
        case .success(let message): model.status = StatusMessage(message)
        case .failure(let error): model.status = StatusMessage("\(error)", isError: true)
        }
    }

    private mutating func handleTimelineKey(_ key: Key) -> [TimelineCommand] {
        let page = model.layout.timelineRows
        switch key {
        case .up, .character("k"): moveCursor(to: model.index(movedBy: -1))
        case .down, .character("j"): moveCursor(to: model.index(movedBy: 1))
        case .pageUp, .control("b"): moveCursor(to: model.index(movedBy: -page), scrollBy: -page)
        case .pageDown, .control("f"): moveCursor(to: model.index(movedBy: page), scrollBy: page)
        case .control("u"): moveCursor(to: model.index(movedBy: -page / 2), scrollBy: -page / 2)
        case .control("d"): moveCursor(to: model.index(movedBy: page / 2), scrollBy: page / 2)
        case .home, .character("g"): moveCursor(to: 0)
        case .left where model.showsChart: moveBySlice(-1)
        case .right where model.showsChart: moveBySlice(1)
        case .end, .character("G"):
            model.following = true
            model.cursor = model.lastRowIndex
            ensureCursorVisible()
        case .enter:
            guard let session = requireConnectedApp(offering: [WireCapability.jump], for: "jump") else { return [] }
            if let refusal = refusal(jumpingTo: model.cursor, in: session) {
                model.status = refusal
                return []
            }
            return [.jump(session: session.id, index: model.cursor)]
        default: break
        }
        return []
    }

    private mutating func handleDetailKey(_ key: Key) -> [TimelineCommand] {
        let lines = detailContent.content(for: model, now: clock()).lines
        let page = model.detailTreeRows
        model.detailCursor = min(max(0, model.detailCursor), max(0, lines.count - 1))
        let line = lines.indices.contains(model.detailCursor) ? lines[model.detailCursor] : nil
        switch key {
        case .up, .character("k"): moveDetailCursor(to: model.detailCursor - 1, lineCount: lines.count)
        case .down, .character("j"): moveDetailCursor(to: model.detailCursor + 1, lineCount: lines.count)
        case .pageUp, .control("b"): moveDetailCursor(to: model.detailCursor - page, lineCount: lines.count)
        case .pageDown, .control("f"): moveDetailCursor(to: model.detailCursor + page, lineCount: lines.count)
        case .control("u"): moveDetailCursor(to: model.detailCursor - page / 2, lineCount: lines.count)
        case .control("d"): moveDetailCursor(to: model.detailCursor + page / 2, lineCount: lines.count)
        case .home, .character("g"): moveDetailCursor(to: 0, lineCount: lines.count)
        case .end, .character("G"): moveDetailCursor(to: lines.count - 1, lineCount: lines.count)
        case .enter, .character(" "):
            guard let line, let path = line.path else { return [] }
            if line.isMore {
                if model.detailTab == .action {
                    let shown = max(StateTree.maxChildren, model.actionChildLimits[path] ?? StateTree.maxChildren)
                    model.actionChildLimits[path] = shown + StateTree.maxChildren
                } else {
                    let shown = max(StateTree.maxChildren, model.childLimits[path] ?? StateTree.maxChildren)
                    model.childLimits[path] = shown + StateTree.maxChildren
                }
            } else if model.detailTab == .state && line.isContainer {
                toggle(path)
            } else {
                openViewer(line)
            }
        case .character("b"), .character("B"):
            stepHistory(older: key == .character("b"), line: line)
        case .character("w"):
            return togglePin(line)
        case .character("v"):
            guard let line, line.path != nil, !line.isMore else { return [] }
            openViewer(line)
        case .character("o"), .character("y"), .character("Y"):
            guard let line, let path = line.path, !line.isMore else {
                model.status = StatusMessage("select a value first (a line of the Action, Diff or State tab)",
                                             isError: true)
                return []
            }
            if key == .character("Y") { return valueCommand(key, path: path, text: nil, isString: false) }
            guard let value = wholeValue(line) else { return [] }
            var isString = false
            if case .string = value { isString = true }
            return valueCommand(key, path: path, text: ValueViewerState.text(of: value), isString: isString)
        case .left, .character("h"):
            guard model.detailTab == .state, let line else { return [] }
            if line.isContainer && line.isExpanded, let path = line.path {
                toggle(path)
            } else if let parent = lines[..<model.detailCursor].lastIndex(where: { $0.indent < line.indent }) {
                moveDetailCursor(to: parent, lineCount: lines.count)
            }
        case .right, .character("l"):
            guard model.detailTab == .state, let line else { return [] }
            if line.isContainer && !line.isExpanded, let path = line.path {
                toggle(path)
            } else {
                moveDetailCursor(to: model.detailCursor + 1, lineCount: lines.count)
            }
        default: break
        }
        return []
    }

    // MARK: - State history and comparison

    /// `b` (older) / `B` (newer) on a node of the State tab: the first press lists the events that changed it, up to
    /// the selected event, and selects the newest (the one that set the value shown); later presses step through
    /// them, the State tab staying on the node.
    private mutating func stepHistory(older: Bool, line: DetailLine?) {
        guard model.detailTab == .state else {
            model.status = StatusMessage("b and B list the changes of a node of the State tab (3)", isError: true)
            return
        }
        guard let session = requireSession() else { return }
        if var history = model.history, history.session == session.id,
           history.events.indices.contains(history.position), history.events[history.position] == model.cursor,
           line?.path == nil || line?.path == history.path {
            let next = history.position + (older ? 1 : -1)
            guard history.events.indices.contains(next) else {
                let why = older && !history.complete ? "the older changes are still being read (b again in a moment); "
                    : older ? "no older change; " : "no newer change; "
                model.status = StatusMessage(why + history.summary)
                return
            }
            history.position = next
            model.history = history
            moveCursor(to: history.events[next])
            keepDetailCursor(on: history.path)
            model.status = StatusMessage(history.summary)
            return
        }
        guard let line, let path = line.path, !line.isMore, let pointer = try? JSONPointer(path) else {
            model.status = StatusMessage("select a node of the State tab first", isError: true)
            return
        }
        // The newest changes only, on this thread (a few index lookups); the plot thread reads the rest.
        let limit = StateHistoryCursor.firstReadLimit
        let events: [Int]
        do {
            events = try dataSource.history(session: session.id, pointer: pointer, through: model.cursor,
                                            limit: limit + 1)
        } catch {
            model.status = StatusMessage("cannot read the history of \(path.isEmpty ? "the state" : path): \(error)",
                                         isError: true)
            return
        }
        let history = StateHistoryCursor(session: session.id, path: path, events: Array(events.prefix(limit)),
                                         position: 0, through: model.cursor, complete: events.count <= limit)
        model.history = history
        askHistoryPlot()
        if let newest = events.first, newest != model.cursor {
            moveCursor(to: newest)
            keepDetailCursor(on: path)
        }
        model.status = StatusMessage(history.summary)
    }

    /// Asks for the plot of the history stepped through (`model.history`), `model.historyPlotWidth` columns wide: the
    /// value after each column's change, read off the UI thread (`historyPlotToCompute()` hands it out).
    private mutating func askHistoryPlot() {
        guard let history = model.history, !history.events.isEmpty else {
            model.historyPlot = nil
            return
        }
        model.historyPlot = HistoryPlotState(request: HistoryPlotState.Request(
            session: history.session, path: history.path, through: history.through, width: model.historyPlotWidth))
    }

    /// The value plot's computation to hand to the plot thread now (marking it handed out), or nil: there is no
    /// history, or its plot was asked already at this width. A resize asks again at the new width.
    mutating func historyPlotToCompute() -> HistoryPlotJob? {
        guard let history = model.history, var plot = model.historyPlot else { return nil }
        if plot.request.width != model.historyPlotWidth {
            askHistoryPlot()
            guard let asked = model.historyPlot else { return nil }
            plot = asked
        }
        guard !plot.handedOut else { return nil }
        plot.handedOut = true
        model.historyPlot = plot
        return HistoryPlotJob(request: plot.request, events: history.events, complete: history.complete)
    }

    /// The plot thread answered `request` (nil: it failed, saying why in `failure`): shown when it is still the plot
    /// asked; a history read only in part (`StateHistoryCursor.complete` false) takes the whole list it brings.
    package mutating func receiveHistoryPlot(
        _ request: HistoryPlotState.Request, answer: HistoryPlotState.Answer?, failure: String?
    ) {
        guard var plot = model.historyPlot, plot.request == request else { return }
        var answer = answer
        if let every = answer?.events {
            // The whole history, read with the plot: the cursor's list grows to it (its newest part is the same).
            if var history = model.history, history.session == request.session, history.path == request.path,
               history.through == request.through, !history.complete {
                let showing = model.status?.text == history.summary
                history.events = every
                history.complete = true
                model.history = history
                if showing { model.status = StatusMessage(history.summary) }
            }
            answer?.events = nil
        }
        plot.answer = answer
        plot.failure = answer == nil ? failure ?? "cancelled" : nil
        model.historyPlot = plot
    }

    // MARK: - Pinned watches

    /// Takes the pins read from `pins.json` (at start): the pins, or why the file is not used — said once in the
    /// status line; pins then last this run only, and the file is never written over.
    package mutating func loadPins(_ loaded: PinFile.Loaded) {
        switch loaded {
        case .board(let board):
            model.pinBoard = board
            model.pinFileProblem = nil
        case .corrupt(let problem):
            model.pinBoard = PinBoard()
            model.pinFileProblem = problem
            model.status = StatusMessage("pins not loaded: \(problem) — pins last this run only (the file is kept "
                + "as it is: fix or remove it)", isError: true)
        }
    }

    /// `w` on a node of the State tab: pins its JSON Pointer for the session's app (its value then shows beside every
    /// row of the timeline), or unpins it; asks for the pins to be saved.
    private mutating func togglePin(_ line: DetailLine?) -> [TimelineCommand] {
        guard model.detailTab == .state else {
            model.status = StatusMessage("w pins a node of the State tab (3): its value shows beside every row",
                                         isError: true)
            return []
        }
        guard let session = requireSession() else { return [] }
        guard let line, let path = line.path, !line.isMore else {
            model.status = StatusMessage("select a node of the State tab first", isError: true)
            return []
        }
        let pinned = model.pinBoard.toggle(path, for: session.appName)
        let place = path.isEmpty ? "the state" : path
        var said = pinned
            ? "pinned \(place) for \(session.appName): its value shows beside every row (w on it again unpins)"
            : "unpinned \(place) for \(session.appName)"
        let shown = PinnedColumns(pinned: model.pinnedPointers,
                                  width: model.layout.timeline.width - (model.showsMap ? SessionMapView.width : 0))
        if pinned && shown.pointers.count < model.pinnedPointers.count {
            said += "; only \(shown.pointers.count) of \(model.pinnedPointers.count) pins fit beside the rows at this "
                + "width (widen the terminal, or unpin one)"
        }
        model.status = StatusMessage(said)
        return [.savePins(model.pinBoard, said: said)]
    }

    /// The values of the pinned watches to read off the UI thread now (marking them asked): those of the rows on
    /// screen not read yet; nil when there are none (or no pins). Starts over when the session or the pins change.
    package mutating func pinnedValuesToCompute() -> PinnedValuesState.Request? {
        let pointers = model.pinnedPointers
        guard let session = model.selectedSessionID, !pointers.isEmpty else {
            model.pinnedValues = nil
            return nil
        }
        var state = model.pinnedValues
        if state?.session != session || state?.pointers != pointers {
            state = PinnedValuesState(session: session, pointers: pointers)
        }
        let request = state?.request(visible: model.visibleIndices)
        model.pinnedValues = state
        return request
    }

    /// The pinned-values thread answered `request` (nil: it failed, saying why in `failure`; its rows then show as
    /// unknown): kept when the session and pins are still the ones asked about.
    package mutating func receivePinnedValues(
        _ request: PinnedValuesState.Request, values: [[RecordedValue]]?, failure: String?
    ) {
        guard var state = model.pinnedValues else { return }
        state.receive(request, values: values, around: model.cursor)
        model.pinnedValues = state
        if values == nil, let failure, request.session == state.session {
            model.status = StatusMessage("cannot read the pinned values: \(failure)", isError: true)
        }
    }

    /// Puts the detail cursor back on the line showing `path` (after the timeline cursor moved).
    private mutating func keepDetailCursor(on path: String) {
        let lines = detailContent.content(for: model, now: clock()).lines
        guard let line = lines.firstIndex(where: { $0.path == path && !$0.isMore }) else { return }
        moveDetailCursor(to: line, lineCount: lines.count)
    }

    /// `m`: marks the selected event for comparison (the Diff tab then shows the patch from the marked event's
    /// state to the selected one's), or clears the mark when it is on the selected event.
    private mutating func toggleMark() {
        guard requireSession() != nil else { return }
        if model.mark == model.cursor {
            model.mark = nil
            model.status = StatusMessage("mark cleared: the Diff tab shows each event's own patch")
        } else {
            model.mark = model.cursor
            model.status = StatusMessage("marked #\(model.cursor): select another event; the Diff tab (2) shows the "
                                         + "patch from #\(model.cursor) to it (m on #\(model.cursor) clears)")
        }
    }

    // MARK: - Values

    /// Opens the value viewer on the whole value `line` shows.
    private mutating func openViewer(_ line: DetailLine) {
        guard let path = line.path, let value = wholeValue(line) else { return }
        model.dialog = .viewer(ValueViewerState(path: path, tab: model.detailTab, value: value,
                                                width: ValueViewerOverlay.textWidth(screenWidth: model.screenWidth)))
    }

    /// The whole value `line` shows: its own (Diff tab), or the value at its path in the selected event's state or
    /// action; nil (saying so) when there is none.
    private mutating func wholeValue(_ line: DetailLine) -> JSONValue? {
        guard let path = line.path, let value = line.value ?? detailContent.value(at: path, for: model) else {
            model.status = StatusMessage("no value to show here", isError: true)
            return nil
        }
        return value
    }

    /// `o` (pager), `y` (copy the value) or `Y` (copy its JSON Pointer) on the value at `path`: `text` is the
    /// value's text (a string's own, else JSON; nil only for `Y`).
    private func valueCommand(_ key: Key, path: String, text: String?, isString: Bool) -> [TimelineCommand] {
        if key == .character("Y") {
            return [.copy(text: path, what: "the JSON Pointer \(path.isEmpty ? "\"\" (the whole value)" : path)")]
        }
        guard let text else { return [] }
        if key == .character("o") {
            return [.openInPager(text: text, name: isString ? "value.txt" : "value.json")]
        }
        return [.copy(text: text, what: "the value at \(path.isEmpty ? "(root)" : path)")]
    }

    private mutating func handleViewerKey(_ viewer: ValueViewerState, _ key: Key) -> [TimelineCommand] {
        var viewer = viewer
        let page = max(1, ValueViewerOverlay.textRows(screenHeight: model.screenHeight))
        let last = max(0, viewer.lines.count - page)
        switch key {
        case .escape, .character("q"), .enter, .character("v"), .control("c"):
            model.dialog = nil
            return []
        case .up, .character("k"): viewer.scroll -= 1
        case .down, .character("j"): viewer.scroll += 1
        case .pageUp, .control("b"), .character("b"): viewer.scroll -= page
        case .pageDown, .control("f"), .character(" "): viewer.scroll += page
        case .home, .character("g"): viewer.scroll = 0
        case .end, .character("G"): viewer.scroll = last
        case .character("o"), .character("y"), .character("Y"):
            return valueCommand(key, path: viewer.path, text: viewer.text, isString: viewer.isString)
        default: break
        }
        viewer.scroll = min(max(0, viewer.scroll), last)
        model.dialog = .viewer(viewer)
        return []
    }

    // MARK: - Mouse

    /// A click selects the session, row or detail line under it (and focuses its pane), or a detail tab; the wheel
    /// scrolls the pane under the pointer (or the value viewer) three lines. Keys stay the primary way: nothing
    /// is only reachable with the mouse.
    private mutating func handleMouse(_ event: MouseEvent) {
        let step = event.kind == .wheelUp ? -3 : 3
        switch model.dialog {
        case .viewer(var viewer):
            guard event.kind != .press else { return }
            let rows = ValueViewerOverlay.textRows(screenHeight: model.screenHeight)
            viewer.scroll = min(max(0, viewer.scroll + step), max(0, viewer.lines.count - rows))
            model.dialog = .viewer(viewer)
            return
        case .help:
            if event.kind == .press { model.dialog = nil }
            return
        case .stats(var stats):
            guard event.kind != .press else { return }
            stats.move(by: step, visible: statsRows)
            model.dialog = .stats(stats)
            return
        case .prompt, .confirmQuit, .confirmDelete:
            return
        case nil:
            break
        }
        let layout = model.layout
        let point = (row: event.row, column: event.column)
        func inside(_ rect: Rect) -> Bool {
            !rect.isEmpty && point.row >= rect.row && point.row < rect.bottom && point.column >= rect.column
                && point.column < rect.right
        }
        if inside(layout.sessions) {
            let body = layout.sessions.droppingTop(1)
            guard !model.sessions.isEmpty else { return }
            let position = model.selectedSessionPosition ?? 0
            var target = position
            if event.kind == .press {
                guard inside(body) else { model.focus = .sessions; return }
                target = SessionsView.firstVisible(model, rows: body.height) + (point.row - body.row)
                model.focus = .sessions
            } else {
                target = position + (event.kind == .wheelUp ? -1 : 1)
            }
            guard model.sessions.indices.contains(target) else { return }
            if target != position || model.selectedSession == nil { select(model.sessions[target]) }
        } else if model.showsChart && inside(layout.chart) {
            // A click on the chart's bars or axis: the first event of that slice, centred.
            let columns = layout.chart.width - SessionChartView.gutterWidth
            let column = point.column - layout.chart.column - SessionChartView.gutterWidth
            model.focus = .timeline
            guard event.kind == .press, point.row > layout.chart.row, column >= 0, column < columns else { return }
            moveCursor(to: model.firstIndex(ofChartColumn: column, columns: columns))
            centreCursor()
        } else if inside(layout.timeline) {
            let body = layout.timeline.droppingTop(2)
            if event.kind == .press {
                model.focus = .timeline
                guard inside(body) else { return }
                if model.showsMap && point.column >= body.right - SessionMapView.width {
                    // A click on the session map: the first event of that slice, centred.
                    let first = SessionMap.firstIndex(ofBucket: point.row - body.row, in: 0...Int64(model.eventCount),
                                                      buckets: body.height)
                    moveCursor(to: Int(min(first, Int64(model.eventCount))))
                    centreCursor()
                    return
                }
                if let index = model.index(atPosition: model.scrollTop + (point.row - body.row)) { moveCursor(to: index) }
            } else {
                moveCursor(to: model.index(movedBy: step), scrollBy: step)
            }
        } else if inside(layout.detail) {
            let full = layout.detail.droppingTop(1)
            let body = Rect(row: full.row, column: full.column, width: full.width,
                            height: max(1, full.height - model.historyPlotRows))
            let lineCount = detailContent.content(for: model, now: clock()).lines.count
            if event.kind == .press {
                model.focus = .detail
                if point.row == layout.detail.row {
                    if let tab = Self.detailTab(atColumn: point.column - layout.detail.column) { selectTab(tab) }
                    return
                }
                // The view keeps the cursor's line on screen from `detailScroll`; the same arithmetic here.
                var scroll = min(model.detailScroll, max(0, lineCount - body.height))
                if model.detailCursor < scroll { scroll = model.detailCursor }
                if model.detailCursor >= scroll + body.height { scroll = model.detailCursor - body.height + 1 }
                let line = max(0, scroll) + (point.row - body.row)
                if line < lineCount { moveDetailCursor(to: line, lineCount: lineCount) }
            } else {
                model.detailScroll = min(max(0, model.detailScroll + step), max(0, lineCount - body.height))
                model.detailCursor = min(max(model.detailCursor, model.detailScroll),
                                         model.detailScroll + body.height - 1)
            }
        }
    }

    /// The tab whose title covers `column` of the detail pane's tab bar (as `DetailView` draws it:
    /// ` 1 Action `, a space, ` 2 Diff `, a space, ` 3 State `).
    static func detailTab(atColumn column: Int) -> DetailTab? {
        var start = 0
        for tab in DetailTab.allCases {
            let width = DisplayWidth.of(" \(tab.rawValue + 1) \(tab.title) ")
            if column >= start && column < start + width { return tab }
            start += width + 1
        }
        return nil
    }

    // MARK: - Dialogs

    private mutating func handleDialog(_ dialog: TimelineDialog, _ key: Key) -> [TimelineCommand] {
        switch dialog {
        case .help:
            // ↑↓ PgUp PgDn scroll a help taller than the screen; any other key closes it.
            let page = max(1, model.screenHeight - 6)
            let scroll: Int? = switch key {
            case .up, .character("k"): model.helpScroll - 1
            case .down, .character("j"): model.helpScroll + 1
            case .pageUp, .control("b"): model.helpScroll - page
            case .pageDown, .control("f"), .character(" "): model.helpScroll + page
            default: nil
            }
            if let scroll {
                let most = HelpOverlay(facts: model.facts).maximumScroll(
                    area: Rect(row: 1, column: 0, width: model.screenWidth, height: model.screenHeight - 2))
                model.helpScroll = min(max(0, scroll), most)
            } else {
                model.dialog = nil
            }
        case .confirmQuit:
            switch key {
            case .character("y"), .character("Y"), .character("q"), .enter, .control("c"):
                model.dialog = nil
                return [.quit]
            case .character("n"), .character("N"), .escape:
                model.dialog = nil
            default:
                break
            }
        case .viewer(let viewer):
            return handleViewerKey(viewer, key)
        case .stats(let stats):
            handleStatsKey(stats, key)
        case .confirmDelete(let session):
            model.dialog = nil
            if key == .character("y") || key == .character("Y") { return [.deleteSession(session.id)] }
            model.status = StatusMessage("kept session \(session.id) (only y deletes)")
        case .prompt(var prompt):
            switch key {
            case .escape, .control("c"), .control("g"):
                model.dialog = nil
                if prompt.kind == .filter { restorePreviewBase(moving: true) }
            case .enter:
                return submit(prompt)
            case .tab where prompt.kind == .filter:
                hideRows(prompt)
            case .up, .down:
                if prompt.recall(older: key == .up) {
                    model.dialog = .prompt(prompt)
                    schedulePreview(prompt)
                }
            default:
                if prompt.editor.handle(key) {
                    prompt.error = nil
                    model.dialog = .prompt(prompt)
                    schedulePreview(prompt)
                }
            }
        }
        return []
    }

    private mutating func submit(_ prompt: PromptState) -> [TimelineCommand] {
        let text = prompt.editor.text
        switch prompt.kind {
        case .filter:
            model.rememberSearch(text)
            let previewed = restorePreviewBase(moving: false)
            guard !text.isEmpty else {
                model.dialog = nil
                model.filter = nil
                model.searchQuery = nil
                model.status = StatusMessage("filter cleared")
                return []
            }
            do {
                if let kinds = try TimelineRowFilter.kinds(parsing: text) {
                    model.dialog = nil
                    setHiding(labels: model.hiding?.labels, kinds: kinds, reusing: previewed)
                    return []
                }
                let query = try TimelineSearchQuery(parsing: text)
                model.dialog = nil
                model.filter = query.labelFilter
                model.searchQuery = query
                if let labels = query.labelFilter {
                    // Enter keeps the list narrowed to the matching rows, as typing showed it.
                    setHiding(labels: labels, kinds: model.hiding?.hiddenKinds ?? [], reusing: previewed)
                }
                return searchRequest(from: model.cursor, forward: true, announceWrap: false)
            } catch {
                var refused = prompt
                refused.error = error.description
                model.dialog = .prompt(refused)
                model.filterPreview = FilterPreview(of: model)  // the prompt stays open on the view it opened on
            }
            return []
        case .goTo:
            goTo(prompt)
            return []
        case .dispatch:
            guard let session = model.selectedSession else {
                model.dialog = nil
                model.status = StatusMessage("no session selected", isError: true)
                return []
            }
            guard !text.allSatisfy(\.isWhitespace) else {
                var refused = prompt
                refused.error = nearestRecordedAction(session).map { "type an action as JSON, shaped as this app records them, e.g. \($0)" }
                    ?? "type an action as JSON, as the app encodes its actions (this session has none recorded to show)"
                model.dialog = .prompt(refused)
                return []
            }
            do {
                let action = try JSONValue(parsing: text)
                model.dialog = nil
                model.lastDispatch = text
                return [.dispatch(session: session.id, action: action)]
            } catch {
                var refused = prompt
                refused.error = "not valid JSON: \(error)"
                model.dialog = .prompt(refused)
                return []
            }
        }
    }

    private mutating func requestQuit() -> [TimelineCommand] {
        if model.header.connectedApps > 0 {
            model.dialog = .confirmQuit
            return []
        }
        return [.quit]
    }

    // MARK: - Time travel

    /// The selected event's recorded action as compact JSON, when the cursor is on an action that has one.
    /// The JSON of the recorded action nearest before the cursor (looking at up to 500 rows back, then forward), so
    /// that the dispatch prompt shows the real shape of the app's actions (a Swift enum's is `{"add":{"_0":1}}`,
    /// not `{"type":"add"}`); nil when there is none.
    private func nearestRecordedAction(_ session: TimelineSession) -> String? {
        let count = model.eventCount
        guard count > 0 else { return nil }
        let cursor = min(max(1, model.cursor), count)
        let ranges = [max(1, cursor - 499)...cursor, cursor...min(count, cursor + 499)]
        for (offset, range) in ranges.enumerated() {
            guard let rows = try? dataSource.events(session: session.id, range: range) else { continue }
            let ordered = offset == 0 ? Array(rows.reversed()) : rows
            for row in ordered where row.kind == .action {
                if let action = (try? dataSource.event(session: session.id, index: row.index))?.action {
                    return action.serialized()
                }
            }
        }
        return nil
    }

    private func recordedAction(_ session: TimelineSession) -> String? {
        guard model.cursor > 0,
              let detail = try? dataSource.event(session: session.id, index: model.cursor),
              detail.kind == .action, let action = detail.action else { return nil }
        return action.serialized()
    }

    /// `<` / `>`: moves the cursor one event and jumps the app there.
    private mutating func step(by offset: Int) -> [TimelineCommand] {
        guard let session = requireConnectedApp(offering: [WireCapability.jump], for: "step") else { return [] }
        var target = model.cursor + offset
        if model.visibleRows != nil {  // the next shown row, past the ends when there is none
            let moved = model.index(movedBy: offset)
            target = moved != model.cursor ? moved : offset < 0 ? -1 : model.eventCount + 1
        }
        guard target >= 0 else {
            model.status = StatusMessage("already at the initial state", isError: true)
            return []
        }
        guard target <= model.eventCount else {
            model.status = StatusMessage("already at the newest event", isError: true)
            return []
        }
        moveCursor(to: target)
        if let refusal = refusal(jumpingTo: target, in: session) {
            model.status = refusal
            return []
        }
        return [.jump(session: session.id, index: target)]
    }

    // MARK: - Targets the recording cannot serve

    /// Why the app cannot be put into the state after event `index`, or nil when it can: that state was not
    /// recorded (inside a `dropped` range, PROTOCOL.md §3.3).
    private func refusal(jumpingTo index: Int, in session: TimelineSession) -> StatusMessage? {
        guard index > 0, let event = try? dataSource.event(session: session.id, index: index),
              event.stateUnknown else { return nil }
        let why = event.unknownReason?.phrase ?? "inside a dropped range"
        return StatusMessage("not jumping: the state after event \(index) is unknown (not recorded: \(why)); jump to a "
            + "row before it or to the snapshot after it", isError: true)
    }

    /// Why event `index` cannot be skipped, or nil when the daemon may try: only main-line actions can be
    /// skipped, and recomputing needs the recorded state before the action.
    private func refusal(skipping index: Int, in session: TimelineSession) -> StatusMessage? {
        guard let event = try? dataSource.event(session: session.id, index: index) else { return nil }
        if event.branch != 0 {
            let original = event.recomputes.map { "; select #\($0) to skip the original" } ?? ""
            return StatusMessage("event \(index) is a recomputed row of branch \(event.branch): only actions of the "
                + "main line can be skipped\(original)", isError: true)
        }
        if event.stateBeforeUnknown {
            return StatusMessage("cannot skip event \(index): the state before it is unknown (not recorded), so "
                + "nothing can be recomputed from it", isError: true)
        }
        return nil
    }

    /// Why a replay cannot start at event `index`, or nil when it can: a replay starts from the recorded main-line
    /// state before `index`.
    private func refusal(replayingFrom index: Int, in session: TimelineSession) -> StatusMessage? {
        guard index > 0, let event = try? dataSource.event(session: session.id, index: index) else {
            return nil
        }
        if event.branch != 0 {
            return StatusMessage("event \(index) is a recomputed row of branch \(event.branch): a replay runs the main "
                + "line's actions; select a row of the main line", isError: true)
        }
        if event.stateBeforeUnknown {
            return StatusMessage("cannot replay from event \(index): the state before it is unknown (not recorded); "
                + "replay from the first row whose state before it is known, or after the snapshot that follows",
                isError: true)
        }
        return nil
    }

    /// `p`: holds live events back, or lets the held ones in and says how many there were.
    private mutating func togglePause() {
        if model.paused {
            let shown = model.pausedCounts
            model.paused = false
            model.pausedCounts = [:]
            var arrived = 0
            for session in dataSource.sessions() {
                arrived += max(0, session.eventCount - (shown[session.id] ?? 0))
            }
            refresh()
            model.status = StatusMessage(arrived == 1 ? "1 event arrived while paused"
                                                      : "\(arrived) events arrived while paused")
        } else {
            model.paused = true
            model.pausedCounts = Dictionary(model.sessions.map { ($0.id, $0.eventCount) }, uniquingKeysWith: { $1 })
            model.heldEvents = 0
            model.status = StatusMessage("paused: new events are held back (the app keeps running); p resumes")
        }
    }

    // MARK: - Go to

    /// `:` submitted: moves the selection to the event, time or percentage typed (centred in the timeline), or
    /// keeps the prompt open with the reason it cannot. Costs O(log n) row reads for a time, none otherwise.
    private mutating func goTo(_ prompt: PromptState) {
        guard let session = model.selectedSession else {
            model.dialog = nil
            model.status = StatusMessage("no session selected", isError: true)
            return
        }
        func refuse(_ reason: String) {
            var refused = prompt
            refused.error = reason
            model.dialog = .prompt(refused)
        }
        let count = session.eventCount
        let target: Int
        var said: String?
        do {
            switch try GoToTarget(parsing: prompt.editor.text) {
            case .event(let number):
                guard number <= count else {
                    refuse("no event \(Formatting.grouped(number)): the session has \(Formatting.grouped(count))")
                    return
                }
                target = number
            case .percent(let share):
                target = Int((Double(count) * share / 100).rounded())
                said = "\(prompt.editor.text.trimmingCharacters(in: .whitespaces)) of the session"
            case .relativeTime(let seconds):
                let time = session.startedAt + seconds
                if let last = try lastTime(of: session), time > last {
                    target = count
                    said = "the last event, at \(Formatting.relativeTime(last - session.startedAt)): the session "
                        + "has nothing at or after \(Formatting.relativeTime(seconds))"
                } else {
                    target = try index(atOrAfter: time, in: session)
                    said = "the first event at or after \(Formatting.relativeTime(seconds))"
                }
            case .clockTime(let secondsOfDay):
                var time = GoToTarget.localTime(secondsOfDay: secondsOfDay, dayOf: session.startedAt)
                let last = try lastTime(of: session)
                if time < session.startedAt - 1, let last, time + 86_400 <= last {
                    time += 86_400  // the session ran past midnight
                }
                if let last, time > last {
                    target = count
                    said = "the last event, at \(Formatting.clockTime(last)): the session has nothing at or after "
                        + Formatting.clockTime(time)
                } else {
                    target = try index(atOrAfter: time, in: session)
                    said = "the first event at or after \(Formatting.clockTime(time))"
                }
            }
        } catch let invalid as GoToTarget.Invalid {
            refuse(invalid.description)
            return
        } catch {
            refuse("cannot read the session: \(error)")
            return
        }
        model.dialog = nil
        model.status = StatusMessage("event \(Formatting.grouped(target))" + (said.map { ": " + $0 } ?? ""))
        moveCursor(to: target)
        centreCursor()  // after the status: it takes a row from the timeline
    }

    /// The event at or after unix time `time`: 0 (the initial state) before the first event.
    private func index(atOrAfter time: Double, in session: TimelineSession) throws -> Int {
        guard session.eventCount > 0 else { return 0 }
        if let first = try dataSource.events(session: session.id, range: 1...min(session.eventCount, 8)).first,
           time < first.time, time <= session.startedAt {
            return 0
        }
        return try dataSource.firstEvent(session: session.id, atOrAfter: time, count: session.eventCount)
    }

    /// The newest event's time, if it can be read.
    private func lastTime(of session: TimelineSession) throws -> Double? {
        guard session.eventCount > 0 else { return nil }
        let count = session.eventCount
        return try dataSource.events(session: session.id, range: max(1, count - 7)...count).last?.time
    }

    /// Scrolls so that the cursor sits in the middle of the timeline's rows.
    private mutating func centreCursor() {
        let rows = model.layout.timelineRows
        model.scrollTop = model.position(of: model.cursor) - rows / 2
        ensureCursorVisible()
    }

    // MARK: - Search

    private mutating func searchAgain(forward: Bool) -> [TimelineCommand] {
        guard model.searchQuery != nil else {
            model.status = StatusMessage("no search: press / to search labels, actions or states")
            return []
        }
        return searchRequest(from: model.cursor + (forward ? 1 : -1), forward: forward, announceWrap: true)
    }

    /// The command searching from `start` in the direction given (wrapping around once), run off the UI thread.
    private mutating func searchRequest(from start: Int, forward: Bool, announceWrap: Bool) -> [TimelineCommand] {
        guard let query = model.searchQuery, let session = model.selectedSession else { return [] }
        guard session.eventCount > 0 else {
            model.status = StatusMessage(query.noMatchMessage, isError: true)
            return []
        }
        model.search = StatusMessage("searching \(query)…")
        return [.search(TimelineSearchRequest(session: session.id, query: query, start: start, forward: forward,
                                              count: session.eventCount, announceWrap: announceWrap))]
    }

    /// Shows how far the running search got (`searched` of `total` events).
    package mutating func showSearchProgress(_ request: TimelineSearchRequest, searched: Int, total: Int) {
        let percent = total > 0 ? min(100, searched * 100 / total) : 0
        model.search = StatusMessage("searching \(request.query)… \(percent)% of \(Formatting.grouped(total)) events "
            + "— Esc cancels")
    }

    /// A search finished (`found` nil: nothing matched), failed, or was cancelled: moves the cursor to what it
    /// found (when the session it searched is still selected) and says so.
    package mutating func finishSearch(
        _ request: TimelineSearchRequest, found: Int?, wrapped: Bool, cancelled: Bool, failure: String?
    ) {
        model.search = nil
        if cancelled {
            model.status = StatusMessage("search cancelled")
            return
        }
        if let failure {
            model.status = StatusMessage("search failed: \(failure)", isError: true)
            return
        }
        guard model.selectedSessionID == request.session else { return }
        guard let found else {
            model.status = StatusMessage(request.query.noMatchMessage, isError: true)
            return
        }
        moveCursor(to: found)
        if wrapped && request.announceWrap {
            model.status = StatusMessage(request.forward ? "search wrapped to the top" : "search wrapped to the bottom")
        } else if request.query.labelFilter == nil {
            model.status = StatusMessage("event \(Formatting.grouped(found)): \(request.query)")
        }
    }

    // MARK: - Hiding rows

    /// Tab in the `/` prompt: shows only the rows whose label matches the regex typed (empty: every label).
    private mutating func hideRows(_ prompt: PromptState) {
        let text = prompt.editor.text
        do {
            let labels = text.isEmpty ? nil : try TimelineLabelFilter(pattern: text)
            model.dialog = nil
            model.rememberSearch(text)
            let previewed = restorePreviewBase(moving: false)
            setHiding(labels: labels, kinds: model.hiding?.hiddenKinds ?? [], reusing: previewed)
        } catch {
            var refused = prompt
            refused.error = error.description
            model.dialog = .prompt(refused)
        }
    }

    /// Hides the rows `labels` does not match and those of `kinds`; the rows are computed off the UI thread (see
    /// `rowsToCompute()`), and the timeline shows every row until they are.
    /// `reusing`: the rows the preview computed (or is computing), kept when they are for the same filter.
    private mutating func setHiding(
        labels: TimelineLabelFilter?, kinds: Set<EventKind>, reusing previewed: TimelineRowFilter? = nil
    ) {
        guard let session = model.selectedSession else {
            model.status = StatusMessage("no session selected", isError: true)
            return
        }
        guard labels != nil || !kinds.isEmpty else {
            clearHiding()
            model.status = StatusMessage("showing every row")
            return
        }
        if let previewed, previewed.session == session.id, previewed.labels == labels, previewed.hiddenKinds == kinds {
            model.hiding = previewed
            model.filtering = previewed.rows == nil ? StatusMessage("filtering…") : nil
            if previewed.rows != nil {
                model.status = StatusMessage("\(Formatting.grouped(previewed.rows?.count ?? 0)) of "
                    + "\(Formatting.grouped(previewed.coveredThrough)) events shown (\(previewed.description)); Esc shows all")
            }
            return
        }
        model.hiding = TimelineRowFilter(session: session.id, labels: labels, hiddenKinds: kinds)
        model.filtering = StatusMessage("filtering…")
    }

    // MARK: - Filter as you type

    /// An edit in the `/` prompt: its text is previewed `FilterPreview.debounce` seconds after the last one.
    private mutating func schedulePreview(_ prompt: PromptState) {
        guard prompt.kind == .filter, var preview = model.filterPreview else { return }
        preview.dueAt = clock() + FilterPreview.debounce
        model.filterPreview = preview
    }

    /// Previews the text typed at the `/` prompt when its debounce has passed (call before each frame): a label
    /// regex narrows the list to the matching rows (computed off the UI thread, see `rowsToCompute()`) and highlights
    /// them, `-kind,…` hides those kinds, and an empty line, an action or a state search (`a:`, `s:`, searched only on
    /// Enter) show the view the prompt opened on; a regex still being typed (invalid) leaves the last preview. True
    /// when the view changed.
    @discardableResult
    package mutating func applyDuePreview() -> Bool {
        guard var preview = model.filterPreview, let due = preview.dueAt, clock() >= due else { return false }
        guard case .prompt(let prompt) = model.dialog, prompt.kind == .filter else {
            model.filterPreview = nil
            return false
        }
        preview.dueAt = nil
        model.filterPreview = preview
        let text = prompt.editor.text
        guard text != preview.shownText, let session = model.selectedSession else { return false }
        let base = preview.hiding?.session == session.id ? preview.hiding : nil
        let wanted: (labels: TimelineLabelFilter?, kinds: Set<EventKind>, highlight: TimelineLabelFilter?)?
        do {
            if text.isEmpty {
                wanted = nil
            } else if let hidden = try TimelineRowFilter.kinds(parsing: text) {
                wanted = (base?.labels, hidden, preview.filter)
            } else if let labels = try TimelineSearchQuery(parsing: text).labelFilter {
                wanted = (labels, base?.hiddenKinds ?? [], labels)
            } else {
                wanted = nil  // `a:` and `s:` search on Enter only
            }
        } catch {
            return false  // still being typed: keep the last preview
        }
        preview.shownText = text
        model.filterPreview = preview
        guard let wanted, wanted.labels != base?.labels || wanted.kinds != (base?.hiddenKinds ?? []) else {
            restoreView(preview, moving: true)
            return true
        }
        model.filter = wanted.highlight
        model.cursor = preview.cursor
        model.following = preview.following
        model.scrollTop = preview.scrollTop
        if let current = model.hiding, current.session == session.id, current.labels == wanted.labels,
           current.hiddenKinds == wanted.kinds {
            ensureCursorVisible()
            return true  // already shown
        }
        model.hiding = TimelineRowFilter(session: session.id, labels: wanted.labels, hiddenKinds: wanted.kinds)
        model.filtering = StatusMessage("filtering…")
        ensureCursorVisible()
        return true
    }

    /// Gives back the view the `/` prompt opened on (its filter, search and hidden rows; with `moving`, its cursor and
    /// scroll too) and ends the preview; returns the rows the preview was showing (to keep when Enter or Tab asks for
    /// the same filter), nil when it showed the view the prompt opened on.
    @discardableResult
    private mutating func restorePreviewBase(moving: Bool) -> TimelineRowFilter? {
        guard let preview = model.filterPreview else { return nil }
        model.filterPreview = nil
        let previewed = model.hiding
        guard previewed != preview.hiding || model.filter != preview.filter else { return nil }
        restoreView(preview, moving: moving)
        return previewed == preview.hiding ? nil : previewed
    }

    /// Puts the filter, search and hidden rows of `preview`'s base view back (and with `moving`, its cursor and
    /// scroll); the preview goes on.
    private mutating func restoreView(_ preview: FilterPreview, moving: Bool) {
        model.filter = preview.filter
        model.searchQuery = preview.searchQuery
        if model.hiding != preview.hiding {
            if var hiding = preview.hiding {
                // Its rows may have been cancelled half-way by the preview's: ask for what they lack again.
                hiding.requestedThrough = hiding.coveredThrough
                model.hiding = hiding
                model.filtering = hiding.rows == nil ? StatusMessage("filtering…") : nil
            } else {
                model.hiding = nil
                model.filtering = nil
            }
        }
        if moving {
            model.following = preview.following
            model.cursor = model.following ? model.lastRowIndex : min(preview.cursor, model.eventCount)
            model.scrollTop = preview.scrollTop
        }
        ensureCursorVisible()
    }

    // MARK: - The session map

    /// `M`: shows or hides the session map beside the timeline's rows.
    private mutating func toggleMap() {
        model.mapWanted.toggle()
        if !model.mapWanted {
            model.status = StatusMessage("session map hidden; M shows it")
        } else if model.showsMap {
            model.status = StatusMessage("session map: E error, D dropped, ░ state unknown, J jump, R replay, ~ skip, "
                + "↳ branch, C reconnect; ◀ cursor, █ on screen, ◆ search match")
        } else {
            model.status = StatusMessage("the session map needs a timeline \(TimelineModel.mapMinimumPaneWidth) "
                + "columns wide; widen the terminal", isError: true)
        }
    }

    /// The map computation to hand to the map thread now (marking it asked), or nil: the map is hidden, or what it
    /// shows is current (a growing session is mapped again at most once per `SessionMapState.growthInterval`).
    package mutating func mapToCompute() -> SessionMapState.Request? {
        guard model.showsMap, let session = model.selectedSession else { return nil }
        var state = model.map?.session == session.id ? model.map! : SessionMapState(session: session.id)
        let now = clock()
        guard let request = state.request(count: session.eventCount, buckets: model.mapBuckets,
                                          filter: model.mapFilter, now: now) else {
            if model.map?.session != session.id { model.map = state }
            return nil
        }
        state.asked = request
        state.askedAt = now
        state.computing = true
        model.map = state
        return request
    }

    /// A map computation finished (`map` nil: it failed, saying why in `failure`): shown when it answers the last
    /// request of the selected session's map.
    package mutating func receiveMap(_ request: SessionMapState.Request, map: SessionMap?, failure: String?) {
        guard var state = model.map, state.session == request.session else { return }
        state.receive(request, map: map, failure: failure)
        model.map = state
    }

    // MARK: - The chart

    /// `C`: shows the chart under the timeline's rows, then the next metric, then hides it (after the last).
    private mutating func cycleChart() {
        model.chartMetric = model.chartMetric.map(\.next) ?? ChartMetric.allCases.first
        ensureCursorVisible()  // the band takes rows from the timeline, or gives them back
        guard let metric = model.chartMetric else {
            model.status = StatusMessage("chart hidden; C shows it")
            return
        }
        if model.selectedSession == nil {
            model.status = StatusMessage("no session selected", isError: true)
        } else if model.showsChart {
            let following = metric.next.map { "C: \($0.title)" } ?? "C hides it"
            model.status = StatusMessage("chart: \(metric.title); ▲ the selected row's slice, ← → move by slices; "
                + following)
        } else {
            model.status = StatusMessage("the chart needs a taller timeline; enlarge the terminal", isError: true)
        }
    }

    /// ← → with the chart shown: the selection moves to the first event of the chart's previous or next slice (the
    /// first one shown, with rows hidden), centred.
    private mutating func moveBySlice(_ direction: Int) {
        let columns = model.layout.chart.width - SessionChartView.gutterWidth
        guard columns > 0 else { return }
        let current = model.chartColumn(of: model.cursor, columns: columns)
        var column = current + direction
        while column >= 0 && column < columns {
            let first = model.firstIndex(ofChartColumn: column, columns: columns)
            let shown = model.visibleIndex(near: first)
            let moved = model.chartColumn(of: shown, columns: columns)
            if direction < 0 ? moved < current : moved > current {
                moveCursor(to: shown)
                centreCursor()
                return
            }
            column += direction
        }
    }

    /// The chart computation to hand to the chart thread now (marking it asked), or nil: no chart is shown, or what
    /// it shows is current (a growing session is charted again at most once per `SessionChartState.growthInterval`).
    package mutating func chartToCompute() -> SessionChartState.Request? {
        guard model.showsChart, let session = model.selectedSession else { return nil }
        var state = model.chart?.session == session.id ? model.chart! : SessionChartState(session: session.id)
        let now = clock()
        guard let request = state.request(count: session.eventCount, buckets: model.chartBuckets, now: now) else {
            if model.chart?.session != session.id { model.chart = state }
            return nil
        }
        state.asked = request
        state.askedAt = now
        state.computing = true
        model.chart = state
        return request
    }

    /// A chart computation finished (`chart` nil: it failed, saying why in `failure`) after `seconds`, or reported
    /// its slices so far (`complete` false): shown when it answers the last request of the selected session's chart.
    package mutating func receiveChart(
        _ request: SessionChartState.Request, chart: SessionChart?, failure: String?, seconds: Double = 0,
        complete: Bool = true
    ) {
        guard var state = model.chart, state.session == request.session else { return }
        state.receive(request, chart: chart, failure: failure, seconds: seconds, complete: complete)
        model.chart = state
    }

    private mutating func clearHiding() {
        guard model.hiding != nil else { return }
        model.hiding = nil
        model.filtering = nil
        ensureCursorVisible()
    }

    /// The stretch of events whose visible rows are to be computed next (the whole session when the filter was
    /// just set, then what a live session recorded since), marking it asked; nil when there is none.
    package mutating func rowsToCompute() -> (filter: TimelineRowFilter, range: ClosedRange<Int>)? {
        guard var hiding = model.hiding, hiding.session == model.selectedSessionID else { return nil }
        let count = model.eventCount
        guard count > hiding.requestedThrough else { return nil }
        let range = (hiding.requestedThrough + 1)...count
        hiding.requestedThrough = count
        model.hiding = hiding
        return (hiding, range)
    }

    /// Shows how far the row filter got.
    package mutating func showFilteringProgress(searched: Int, total: Int) {
        guard model.hiding?.rows == nil else { return }
        let percent = total > 0 ? min(100, searched * 100 / total) : 0
        model.filtering = StatusMessage("filtering… \(percent)% of \(Formatting.grouped(total)) events — Esc clears")
    }

    // MARK: - The stats view

    /// How many rows of the stats view's table are on screen.
    private var statsRows: Int {
        StatsOverlay.visibleRows(area: Rect(row: 1, column: 0, width: model.screenWidth, height: model.screenHeight - 2))
    }

    /// A key in the stats view (`S`): ↑↓ PgUp PgDn Home End move, `c` `t` `p` `z` sort (count, total reducer time,
    /// p99, patch bytes), Enter goes to the selected label's events, Esc `q` `S` close.
    private mutating func handleStatsKey(_ stats: StatsViewState, _ key: Key) {
        var stats = stats
        let page = max(1, statsRows - 1)
        switch key {
        case .up, .character("k"): stats.move(by: -1, visible: statsRows)
        case .down, .character("j"): stats.move(by: 1, visible: statsRows)
        case .pageUp, .control("b"): stats.move(by: -page, visible: statsRows)
        case .pageDown, .control("f"), .character(" "): stats.move(by: page, visible: statsRows)
        case .home, .character("g"): stats.move(by: -Int(Int32.max), visible: statsRows)
        case .end, .character("G"): stats.move(by: Int(Int32.max), visible: statsRows)
        case .character("c"): stats.sort(by: .count)
        case .character("t"): stats.sort(by: .total)
        case .character("p"): stats.sort(by: .p99)
        case .character("z"): stats.sort(by: .patch)
        case .tab, .right, .character("l"): stats.switchTable(by: 1)
        case .backTab, .left, .character("h"): stats.switchTable(by: -1)
        case .enter:
            model.dialog = nil
            if let row = stats.selectedRow { goToEvents(of: row) }
            if let event = stats.selectedEvent { goToEvent(event, of: stats.table) }
            return
        case .escape, .character("q"), .character("S"), .control("c"), .control("g"):
            model.dialog = nil
            return
        default:
            break
        }
        model.dialog = .stats(stats)
    }

    /// Enter in the stats view: the cursor on the label's first event, and a search for the label, so that `n` and
    /// `N` walk its events.
    private mutating func goToEvents(of row: LabelStatistics) {
        let pattern = "^" + NSRegularExpression.escapedPattern(for: row.label) + "$"
        if let query = try? TimelineSearchQuery(parsing: pattern), query.labelFilter != nil {
            model.filter = query.labelFilter
            model.searchQuery = query
        }
        moveCursor(to: Int(clamping: row.firstIndex))
        model.status = StatusMessage("event \(Formatting.grouped(Int(clamping: row.firstIndex))): the first of "
            + "\(Formatting.grouped(Int(clamping: row.count))) \(row.label) event\(row.count == 1 ? "" : "s"); "
            + "n N for the next and previous")
    }

    /// Enter on a ranking of the stats view: the cursor on that event.
    private mutating func goToEvent(_ event: RankedEvent, of table: StatsViewState.Table) {
        moveCursor(to: Int(clamping: event.index))
        let measure = table == .slowest ? "its reducer took " + Formatting.duration(micros: event.measure)
            : "its patch is " + Formatting.bytes(Int64(event.measure))
        model.status = StatusMessage("event \(Formatting.grouped(Int(clamping: event.index))) (\(event.label)): \(measure)")
    }

    /// The stats view's table arrived (nil: it could not be computed, saying why in `failure`): shown when the view
    /// is still open on that session.
    package mutating func receiveStats(session: String, statistics: SessionStatistics?, failure: String?) {
        guard case .stats(var stats) = model.dialog, stats.session == session else { return }
        if let statistics {
            stats.show(statistics)
        } else {
            stats.failure = failure ?? "cancelled"
        }
        model.dialog = .stats(stats)
    }

    /// The visible rows of `range` for `filter` arrived (nil: cancelled or failed, saying why in `failure`): adds
    /// them when the filter is still the one set and the stretch follows what is known.
    package mutating func receiveRows(
        _ rows: [Int]?, for filter: TimelineRowFilter, range: ClosedRange<Int>, failure: String?
    ) {
        guard var hiding = model.hiding, RowFilterRunner.same(hiding, filter) else { return }
        if let failure {
            model.status = StatusMessage("filtering failed: \(failure)", isError: true)
            clearHiding()
            return
        }
        guard let rows, range.lowerBound == hiding.coveredThrough + 1 else { return }
        let first = hiding.rows == nil
        hiding.rows = (hiding.rows ?? []) + rows
        hiding.coveredThrough = range.upperBound
        model.hiding = hiding
        model.filtering = nil
        if first, hiding.rows?.isEmpty == true, let labels = hiding.labels, hiding.hiddenKinds.isEmpty {
            model.status = StatusMessage(TimelineSearchQuery.label(labels).noMatchMessage, isError: true)
        } else if first {
            model.status = StatusMessage("\(Formatting.grouped(hiding.rows?.count ?? 0)) of "
                + "\(Formatting.grouped(range.upperBound)) events shown (\(hiding.description)); Esc shows all")
        }
        if model.following {
            model.cursor = model.lastRowIndex
        } else {
            model.cursor = model.visibleIndex(near: model.cursor)
        }
        ensureCursorVisible()
    }

    // MARK: - Helpers

    private mutating func select(_ session: TimelineSession) {
        waitingForLiveSession = false
        model.selectedSessionID = session.id
        model.following = session.status == .live
        model.cursor = model.following ? session.eventCount : 0
        model.scrollTop = 0
        model.seenCount = session.eventCount
        model.detailCursor = 0
        model.detailScroll = 0
        ensureCursorVisible()
    }

    private mutating func requireSession() -> TimelineSession? {
        guard let session = model.selectedSession else {
            model.status = StatusMessage("no session selected", isError: true)
            return nil
        }
        return session
    }

    /// The selected session when its app is connected to this timeline's daemon and offers every ability in
    /// `abilities` (jump, step, skip, replay and dispatch need it); otherwise says why not in the status line and
    /// returns nil.
    private mutating func requireConnectedApp(offering abilities: [String], for what: String) -> TimelineSession? {
        guard let session = requireSession() else { return nil }
        guard session.appConnected else {
            model.status = Self.noAppMessage(session)
            return nil
        }
        if let missing = abilities.first(where: { !session.offers($0) }) {
            model.status = Self.notOfferedMessage(session, missing: missing, for: what)
            return nil
        }
        return session
    }

    /// Why `what` cannot be sent to `session`'s app: it did not offer the ability `missing` (`hello.capabilities`).
    static func notOfferedMessage(_ session: TimelineSession, missing: String, for what: String) -> StatusMessage {
        let commands = [WireCapability.jump, WireCapability.dispatch, WireCapability.replay]
        let offered = (session.appCapabilities ?? []).filter { commands.contains($0) }
        let has = offered.isEmpty ? "it is watched read-only" : "it offers only " + offered.joined(separator: ", ")
        return StatusMessage("cannot \(what): the app of session \(session.id) does not offer '\(missing)' (\(has); "
            + "see docs/INTEGRATIONS.md)", isError: true)
    }

    /// Why the commands that need the app cannot reach `session`'s.
    static func noAppMessage(_ session: TimelineSession) -> StatusMessage {
        if session.status == .live {
            return StatusMessage("this timeline only reads session \(session.id): its app is connected to another "
                + "rewind, not reached (use that timeline, 'rewind open' with its --port, or 'rewind jump \(session.id) N')",
                isError: true)
        }
        return StatusMessage("session \(session.id) has \(session.status == .ended ? "ended" : "been interrupted"): "
            + "no app is connected to jump, step, skip, replay or dispatch", isError: true)
    }

    private mutating func selectTab(_ tab: DetailTab) {
        guard tab != model.detailTab else { return }
        model.detailTab = tab
        model.detailCursor = 0
        model.detailScroll = 0
    }

    private mutating func toggle(_ path: String) {
        if model.toggledPaths.contains(path) {
            model.toggledPaths.remove(path)
        } else {
            model.toggledPaths.insert(path)
        }
    }

    /// Moves the timeline cursor; leaving the newest event stops following. `scrollBy` scrolls the view along
    /// (page keys), so the cursor keeps its place on the screen.
    private mutating func moveCursor(to target: Int, scrollBy: Int = 0) {
        let clamped = model.visibleIndex(near: min(max(0, target), model.eventCount))
        if model.following && clamped != model.lastRowIndex {
            model.following = false
            model.seenCount = model.eventCount
        }
        model.cursor = clamped
        model.scrollTop += scrollBy
        ensureCursorVisible()
    }

    private mutating func ensureCursorVisible() {
        let rows = model.layout.timelineRows
        let cursor = model.position(of: model.cursor)  // positions count only the shown rows
        if cursor < model.scrollTop {
            model.scrollTop = cursor
        } else if cursor >= model.scrollTop + rows {
            model.scrollTop = cursor - rows + 1
        }
        model.scrollTop = min(max(0, model.scrollTop), max(0, model.rowCount - rows))
    }

    private mutating func moveDetailCursor(to target: Int, lineCount: Int) {
        model.detailCursor = min(max(0, target), max(0, lineCount - 1))
        ensureDetailCursorVisible()
    }

    private mutating func ensureDetailCursorVisible() {
        let rows = model.detailTreeRows
        if model.detailCursor < model.detailScroll {
            model.detailScroll = model.detailCursor
        } else if model.detailCursor >= model.detailScroll + rows {
            model.detailScroll = model.detailCursor - rows + 1
        }
        model.detailScroll = max(0, model.detailScroll)
    }
}
