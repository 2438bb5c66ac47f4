/// Where the session map goes: a strip at the right edge of the timeline's rows, one row per bucket.
extension TimelineModel {
    /// The narrowest timeline pane that has room for the map: the rows keep the 50 columns that show the reducer
    /// time.
    package static let mapMinimumPaneWidth = 50 + SessionMapView.width

    /// Whether the map is drawn: wanted (`M`), a session selected, and the timeline pane wide enough.
    package var showsMap: Bool {
        mapWanted && selectedSessionID != nil && layout.timeline.width >= Self.mapMinimumPaneWidth
    }

    /// How many slices the map is computed in: the timeline's rows without a status line, so that a message coming
    /// or going (which takes rows from the timeline) does not compute it again — the view rescales it to the rows
    /// there are (`SessionMapView.rowMarks`); a resize does.
    package var mapBuckets: Int {
        TimelineLayout(width: screenWidth, height: screenHeight, sessionCount: sessions.count, statusLines: 0,
                       wantsChart: wantsChart).timelineRows
    }

    /// The search whose matches the map marks: the `/` label search (or the preview typed), else the label filter of
    /// the hidden rows.
    package var mapFilter: TimelineLabelFilter? {
        filter ?? (hiding?.session == selectedSessionID ? hiding?.labels : nil)
    }
}
