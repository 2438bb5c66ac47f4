/// Which changes of a value's history (`b`) each column of its plot stands for: with more changes than columns, a
/// column stands for a run of consecutive changes and shows the value after the newest of them. Columns go oldest
/// (left) to newest (right). Pure arithmetic on positions: safe from any thread.
package struct HistoryPlotColumns: Sendable, Hashable {
    /// How many changes there are.
    package let changeCount: Int
    /// How many columns the plot has (at most the width asked, at most one per change).
    package let count: Int

    /// The columns for `changeCount` changes drawn `width` columns wide.
    package init(changeCount: Int, width: Int) {
        self.changeCount = max(0, changeCount)
        count = min(self.changeCount, max(0, width))
    }

    /// The column of the change at `position` of the history (0: the newest, as `StateHistoryCursor.events` counts).
    package func column(ofPosition position: Int) -> Int {
        guard count > 0 else { return 0 }
        let oldestFirst = min(max(0, changeCount - 1 - position), changeCount - 1)
        return min(count - 1, ((oldestFirst + 1) * count + changeCount - 1) / changeCount - 1)
    }

    /// The position (0: the newest) of the change whose value column `column` shows: the newest of its run.
    package func sampledPosition(ofColumn column: Int) -> Int {
        let nextStart = (column + 1) * changeCount / max(1, count)  // the first change (oldest first) of the next run
        return changeCount - nextStart
    }

    /// The events whose values the columns show, left to right, from `events` (newest first, as the cursor holds
    /// them).
    package func sampledEvents(_ events: [Int]) -> [Int] {
        (0..<count).map { events[sampledPosition(ofColumn: $0)] }
    }
}
