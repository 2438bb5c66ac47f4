import RewindSessionFile

/// Where the chart goes: a band under the timeline's rows (`TimelineLayout.chart`), one column per slice.
extension TimelineModel {
    /// Whether a chart is wanted for what is shown: a metric chosen (`C`) and a session selected. It shows only where
    /// the timeline has room (`showsChart`).
    package var wantsChart: Bool {
        chartMetric != nil && selectedSessionID != nil
    }

    /// Whether the chart is drawn: wanted, and the layout gave it its band.
    package var showsChart: Bool {
        wantsChart && !layout.chart.isEmpty
    }

    /// How many slices the chart is computed in: its band's columns right of the axis, for the layout without a
    /// status line (as `mapBuckets`), so that a message coming or going does not compute it again.
    package var chartBuckets: Int {
        let band = TimelineLayout(width: screenWidth, height: screenHeight, sessionCount: sessions.count,
                                  statusLines: 0, wantsChart: true).chart
        return max(0, band.width - SessionChartView.gutterWidth)
    }

    /// The chart's column (slice) of event `index` when the chart has `columns` columns, over events 0…`eventCount`.
    package func chartColumn(of index: Int, columns: Int) -> Int {
        SessionMap.bucket(of: Int64(index), in: 0...Int64(eventCount), buckets: columns)
    }

    /// The first event of chart column `column` of `columns` (clamped to the session's events).
    package func firstIndex(ofChartColumn column: Int, columns: Int) -> Int {
        let first = SessionMap.firstIndex(ofBucket: min(max(0, column), max(0, columns - 1)),
                                          in: 0...Int64(eventCount), buckets: columns)
        return Int(min(first, Int64(eventCount)))
    }
}
