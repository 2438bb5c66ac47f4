/// Row positions of the timeline: position 0 is the initial state, then one per shown event. Without a row
/// filter (or before its rows are computed) position and event index are the same; with one, positions count only
/// the visible rows. `scrollTop` is a position; `cursor` an event index.
extension TimelineModel {
    /// The visible event indices when a computed row filter applies to the selected session.
    var visibleRows: [Int]? {
        guard let hiding, hiding.session == selectedSessionID else { return nil }
        return hiding.rows
    }

    /// The number of rows the timeline shows (the initial state included).
    package var rowCount: Int {
        guard let rows = visibleRows else { return eventCount + 1 }
        return rows.count + 1
    }

    /// The event index shown at `position`, or nil past the last row.
    package func index(atPosition position: Int) -> Int? {
        guard position >= 0 else { return nil }
        guard let rows = visibleRows else { return position <= eventCount ? position : nil }
        if position == 0 { return 0 }
        return rows.indices.contains(position - 1) ? rows[position - 1] : nil
    }

    /// The position of `index` (of the first visible row at or after it, for a hidden one; the last row past them).
    package func position(of index: Int) -> Int {
        guard let rows = visibleRows, index > 0 else { return index }
        var low = 0
        var high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if rows[middle] < index { low = middle + 1 } else { high = middle }
        }
        return min(low, max(0, rows.count - 1)) + (rows.isEmpty ? 0 : 1)
    }

    /// The event `rows` rows away from the cursor (clamped to the first and last rows).
    package func index(movedBy rows: Int) -> Int {
        let target = min(max(0, position(of: cursor) + rows), rowCount - 1)
        return index(atPosition: target) ?? 0
    }

    /// The last row's event index (where following and `G` go).
    package var lastRowIndex: Int {
        guard let rows = visibleRows else { return eventCount }
        return rows.last ?? 0
    }

    /// `index` itself when it is shown, else the nearest shown row at or after it (or before, at the end).
    package func visibleIndex(near index: Int) -> Int {
        guard let rows = visibleRows, index > 0, !rows.isEmpty else { return visibleRows?.isEmpty == true ? 0 : index }
        return rows[position(of: index) - 1]
    }
}
