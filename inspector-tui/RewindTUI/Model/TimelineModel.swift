/// The whole state of the timeline UI, as a value: what is selected, scrolled, filtered, open.
///
/// Rows of the timeline are event indices `0...eventCount` of the selected session, where 0 stands for the
/// initial state. `TimelineController` changes it in answer to keys and data; the views only read it.
/// A plain value type: copy it freely; it is `Sendable`.
package struct TimelineModel: Sendable, Hashable {
    /// The header facts, as last read from the data source.
    package var header = TimelineHeader()
    /// The sessions, as last read from the data source.
    package var sessions: [TimelineSession] = []
    /// The session whose events the timeline shows.
    package var selectedSessionID: String?
    /// The pane that receives movement keys.
    package var focus: TimelinePane = .timeline
    /// The selected event index (0 = the initial state).
    package var cursor = 0
    /// The first event index shown in the timeline.
    package var scrollTop = 0
    /// Whether the cursor sticks to the newest event as events arrive (`f`; moving away turns it off).
    package var following = true
    /// The event count when the user last saw the end of the timeline; newer events count as "new".
    package var seenCount = 0
    /// The active label filter (`/`), if any: matching rows are highlighted, others dimmed, `n`/`N` jump.
    package var filter: TimelineLabelFilter?
    /// The last query of the `/` prompt (`n`/`N` repeat it), and its text as typed.
    package var searchQuery: TimelineSearchQuery?
    /// The `/` prompt's past texts, oldest first, without repeats (at most `searchHistoryLimit`): the prompt opens
    /// empty, and Up recalls them.
    package private(set) var searchHistory: [String] = []
    /// How many past searches `searchHistory` keeps.
    package static let searchHistoryLimit = 50

    /// Keeps `text` as the newest past search (moved to the end if it was there already); empty texts are not kept.
    package mutating func rememberSearch(_ text: String) {
        guard !text.isEmpty else { return }
        searchHistory.removeAll { $0 == text }
        searchHistory.append(text)
        if searchHistory.count > Self.searchHistoryLimit { searchHistory.removeFirst() }
    }
    /// The running search's progress line ("searching … 40% — Esc cancels"); nil when no search runs.
    package var search: StatusMessage?
    /// While the `/` prompt is open: the view it opened on and the text waiting to be previewed (filter as you
    /// type); nil otherwise.
    package var filterPreview: FilterPreview?
    /// Whether the session map is wanted beside the timeline's rows (`M`; on by default). It shows only where the
    /// timeline is wide enough (`showsMap`).
    package var mapWanted = true
    /// The session map's last computation and request (see `TimelineModel+Map.swift`).
    package var map: SessionMapState?
    /// What the chart under the timeline's rows shows (`C` cycles the metrics, then hides it); nil: no chart.
    package var chartMetric: ChartMetric?
    /// The chart's last computation and request (see `TimelineModel+Chart.swift`).
    package var chart: SessionChartState?
    /// The rows hidden (`/REGEX` Tab, `/-kind,…`), if any; see `TimelineModel+Rows.swift`.
    package var hiding: TimelineRowFilter?
    /// The row filter's progress line while its rows are computed; nil otherwise.
    package var filtering: StatusMessage?
    /// Relative or absolute times.
    package var timeFormat: TimeFormat = .relative
    /// The detail pane's tab.
    package var detailTab: DetailTab = .action
    /// The selected line of the detail pane's content.
    package var detailCursor = 0
    /// The first content line shown in the detail pane.
    package var detailScroll = 0
    /// State-tree nodes (JSON Pointer strings) whose collapsed/expanded state differs from the default
    /// (containers down to depth 2 start expanded, deeper ones collapsed).
    package var toggledPaths: Set<String> = []
    /// State-tree containers (JSON Pointer strings, "" the root) the user paged into: how many children each
    /// lists instead of `StateTree.maxChildren`.
    package var childLimits: [String: Int] = [:]
    /// The same for the Action tab's containers (JSON Pointers into the action).
    package var actionChildLimits: [String: Int] = [:]
    /// The open dialog, if any.
    package var dialog: TimelineDialog?
    /// The directory the sessions are read from (the data source's `dataDirectory`), for the help and the quit
    /// message; nil when they are not files.
    package var dataDirectory: String?
    /// The first line of the `?` overlay shown (it scrolls when taller than the screen).
    package var helpScroll = 0

    /// Where this timeline's sessions are and what an app needs to reach it, for the `?` overlay: the data
    /// directory, and `REWIND_URL=…` when the daemon listens on another port than the default (`appURL`).
    package var facts: [String] {
        var facts: [String] = []
        if let dataDirectory { facts.append("Sessions: \(dataDirectory)") }
        if let url = header.appURL { facts.append("REWIND_URL=\(url)") }
        return facts
    }

    /// Whether the sessions pane may delete saved sessions here (the data source's `deletesSessions`).
    package var deletesSessions = false
    /// The session the timeline was opened on (`rewind open SESSION`), if any: never deleted while shown.
    package var openedSessionID: String?
    /// The last action typed into the dispatch prompt (it reopens with it).
    package var lastDispatch = ""
    /// The message shown above the footer until the next key.
    package var status: StatusMessage?
    /// The state history being stepped through (`b`/`B` on a node of the State tab), if any.
    package var history: StateHistoryCursor?
    /// The plot of the value whose history is stepped through (`history`), once asked of the plot thread.
    package var historyPlot: HistoryPlotState?
    /// The pinned watches of every app (`w`), as read from `pins.json` and changed since.
    package var pinBoard = PinBoard()
    /// Why `pins.json` is not written (it could not be read as a pins file): pins then last this run only; nil when
    /// it is fine.
    package var pinFileProblem: String?
    /// The pinned watches' values for the selected session's rows.
    package var pinnedValues: PinnedValuesState?
    /// The event marked for comparison (`m`): the Diff tab then shows the patch from its state to the selected
    /// event's state. Nil: the Diff tab shows the selected event's own patch.
    package var mark: Int?
    /// What the command running in the background is doing ("jumping to event 12…"), shown in the status line
    /// while no `status` message is; nil when no command is running.
    package var activity: StatusMessage?
    /// Whether live events are held back (`p`): the timeline and the sessions' counts stay as they were when
    /// paused, while the daemon keeps recording.
    package var paused = false
    /// Each session's event count when the timeline was paused (empty when not paused).
    package var pausedCounts: [String: Int] = [:]
    /// Events recorded since the pause that the timeline holds back (0 when not paused).
    package var heldEvents = 0
    /// The terminal width the layout is computed for.
    package var screenWidth = 80
    /// The terminal height the layout is computed for.
    package var screenHeight = 24

    /// An empty model (no sessions yet), following live events.
    package init() {}

    /// The selected session, if any.
    package var selectedSession: TimelineSession? {
        guard let selectedSessionID else { return nil }
        return sessions.first { $0.id == selectedSessionID }
    }

    /// The selected session's position in `sessions`.
    package var selectedSessionPosition: Int? {
        guard let selectedSessionID else { return nil }
        return sessions.firstIndex { $0.id == selectedSessionID }
    }

    /// Number of events of the selected session (0 when none is selected).
    package var eventCount: Int {
        selectedSession?.eventCount ?? 0
    }

    /// The layout for the current screen size and content.
    package var layout: TimelineLayout {
        var statusLines = statusText.map {
            WrappedText.lines($0.text, width: screenWidth - 1, limit: TimelineLayout.maximumStatusLines).count
        } ?? 0
        switch dialog {
        case .prompt, .confirmDelete: statusLines = 1
        case .viewer: statusLines = max(1, statusLines)  // what o and y report shows below the viewer
        default: break
        }
        return TimelineLayout(width: screenWidth, height: screenHeight, sessionCount: sessions.count,
                              statusLines: statusLines, wantsChart: wantsChart)
    }

    /// What the status rows show when no prompt is open: the status message, else the running search's or row
    /// filter's progress, else what the running command is doing; nil when there is none.
    package var statusText: StatusMessage? {
        status ?? search ?? filtering ?? activity
    }

    /// The last event index visible in the timeline.
    package var lastVisibleIndex: Int {
        index(atPosition: min(rowCount - 1, scrollTop + layout.timelineRows - 1)) ?? eventCount
    }

    /// Events that arrived after the user stopped following and that are below the visible rows: the
    /// "N new" indicator. Zero while following.
    package var unseenCount: Int {
        guard !following else { return 0 }
        return max(0, eventCount - max(seenCount, lastVisibleIndex))
    }
}
