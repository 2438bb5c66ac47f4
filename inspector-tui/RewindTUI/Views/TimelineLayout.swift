/// Where each part of the screen goes for a given terminal size.
///
/// - Wide terminals (120 columns or more): sessions above the timeline on the left, the detail pane on the
///   right, full height.
/// - Narrower ones (80×24 and up): sessions (up to 3 rows), timeline, and detail stacked.
/// Header and footer take one row each; the status/prompt row appears above the footer when needed (up to three
/// rows for a long message). Below
/// `minimumWidth`×`minimumHeight` the screen only says it is too small. Each pane's rectangle includes its
/// title row. A plain value type.
package struct TimelineLayout: Sendable, Hashable {
    /// Narrowest terminal the panes are drawn in.
    package static let minimumWidth = 40
    /// Lowest terminal the panes are drawn in.
    package static let minimumHeight = 10
    /// From this width on, the detail pane goes to the right.
    package static let wideWidth = 120
    /// The most rows a status message wraps onto (the rest is cut with `…`).
    package static let maximumStatusLines = 3

    /// The screen.
    package var screen: Rect
    /// The header row.
    package var header: Rect
    /// The sessions pane (title row + one row per session).
    package var sessions: Rect
    /// The timeline pane (title row + column headings + rows).
    package var timeline: Rect
    /// The vertical separator between the left and right columns (zero width when stacked).
    package var separator: Rect
    /// The detail pane (tab bar + content).
    package var detail: Rect
    /// The chart band under the timeline's rows (`C`): zero height when no chart is shown or the timeline has no
    /// room for one (see ``chartHeight(timelineHeight:)``).
    package var chart: Rect
    /// The status/prompt rows (zero height when not shown; more than one when a long message wraps).
    package var status: Rect
    /// The footer row with the keys.
    package var footer: Rect
    /// Whether the detail pane is on the right.
    package let isWide: Bool
    /// Whether the terminal is below the minimum size.
    package let isTooSmall: Bool

    /// Lays out a `width`×`height` screen.
    /// - Parameters:
    ///   - sessionCount: number of sessions (the sessions pane grows to show them, within limits).
    ///   - hasStatusLine: whether a status message or a prompt needs the row above the footer.
    package init(width: Int, height: Int, sessionCount: Int, hasStatusLine: Bool) {
        self.init(width: width, height: height, sessionCount: sessionCount, statusLines: hasStatusLine ? 1 : 0)
    }

    /// Lays out a `width`×`height` screen whose status rows (above the footer) are `statusLines` high: a long
    /// message wraps onto up to `maximumStatusLines` rows, taken from the panes.
    /// `wantsChart`: a chart is to go under the timeline's rows (`C`), taking its rows from the timeline pane's
    /// bottom when the pane keeps ``minimumRowsBesideChart`` rows of events beside it.
    package init(width: Int, height: Int, sessionCount: Int, statusLines: Int, wantsChart: Bool = false) {
        screen = Rect(row: 0, column: 0, width: width, height: height)
        isTooSmall = width < Self.minimumWidth || height < Self.minimumHeight
        isWide = width >= Self.wideWidth
        header = screen.top(1)
        footer = screen.bottom(1)
        let statusHeight = min(max(0, statusLines), Self.maximumStatusLines)
        status = statusHeight > 0 ? screen.droppingBottom(1).bottom(statusHeight)
            : Rect(row: footer.row, column: 0, width: width, height: 0)
        let body = screen.droppingTop(1).droppingBottom(1 + status.height)
        let sessionRows = max(1, sessionCount)
        if isWide {
            // Below 160 columns the timeline takes a little more than half: at 120, labels get about 30 columns
            // (20 with 46 %), and the detail pane still shows a state tree's lines.
            let leftWidth = width * (width >= 160 ? 46 : 55) / 100
            let left = Rect(row: body.row, column: 0, width: leftWidth, height: body.height)
            separator = Rect(row: body.row, column: leftWidth, width: 1, height: body.height)
            detail = Rect(row: body.row, column: leftWidth + 1, width: width - leftWidth - 1, height: body.height)
            let sessionsHeight = min(min(sessionRows, 8) + 1, max(2, body.height / 3))
            sessions = left.top(sessionsHeight)
            timeline = left.droppingTop(sessionsHeight)
        } else {
            separator = Rect(row: body.row, column: 0, width: 0, height: body.height)
            let sessionsHeight = min(min(sessionRows, 3) + 1, max(2, body.height / 4))
            sessions = body.top(sessionsHeight)
            let rest = body.droppingTop(sessionsHeight)
            let detailHeight = max(3, rest.height * 2 / 5)
            detail = rest.bottom(detailHeight)
            timeline = rest.droppingBottom(detailHeight)
        }
        chart = Rect(row: timeline.bottom, column: timeline.column, width: timeline.width, height: 0)
        let chartHeight = Self.chartHeight(timelineHeight: timeline.height)
        if wantsChart && timeline.height - 2 - chartHeight >= Self.minimumRowsBesideChart {
            chart = timeline.bottom(chartHeight)
            timeline = timeline.droppingBottom(chartHeight)
        }
    }

    /// The fewest event rows the timeline keeps beside a chart; a lower timeline shows none.
    package static let minimumRowsBesideChart = 3

    /// How high the chart band is (its caption, bars and axis) in a timeline pane `timelineHeight` rows high: 8 rows
    /// from 30, 6 from 18, else 5 (three rows of bars).
    package static func chartHeight(timelineHeight: Int) -> Int {
        timelineHeight >= 30 ? 8 : timelineHeight >= 18 ? 6 : 5
    }

    /// Event rows the timeline shows at once (its height minus the title and the column headings).
    package var timelineRows: Int { max(1, timeline.height - 2) }

    /// Content lines the detail pane shows at once (its height minus the tab bar).
    package var detailRows: Int { max(1, detail.height - 1) }
}
