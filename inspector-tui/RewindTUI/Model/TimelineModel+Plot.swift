/// Where the value plot (`b`/`B` on a node of the State tab) goes: the bottom rows of the detail pane, whose tree
/// keeps the rows above.
extension TimelineModel {
    /// Whether the value plot is drawn: the State tab shows, a history of the selected session is stepped through
    /// (the cursor is on its selected change), and its plot was asked.
    package var showsHistoryPlot: Bool {
        guard detailTab == .state, let history, history.session == selectedSessionID, let historyPlot,
              history.events.indices.contains(history.position), history.events[history.position] == cursor else {
            return false
        }
        return historyPlot.request.session == history.session && historyPlot.request.path == history.path
    }

    /// The rows the value plot takes at the bottom of a detail pane whose content has `bodyRows` rows: a title, the
    /// chart (one to four rows, as there is room) and the marker row; 0 when the pane is too low for it.
    package static func historyPlotHeight(bodyRows: Int) -> Int {
        switch bodyRows {
        case 16...: return 6
        case 9...: return 4
        case 5...: return 3
        default: return 0
        }
    }

    /// The rows the value plot takes now (0 when it is not drawn).
    package var historyPlotRows: Int {
        showsHistoryPlot ? Self.historyPlotHeight(bodyRows: layout.detailRows) : 0
    }

    /// The content lines the detail pane shows at once: its rows without the tab bar and the value plot.
    package var detailTreeRows: Int {
        max(1, layout.detailRows - historyPlotRows)
    }

    /// The width of the value plot's chart in columns (the detail pane's, without a margin each side).
    package var historyPlotWidth: Int {
        max(1, layout.detail.width - 2)
    }
}
