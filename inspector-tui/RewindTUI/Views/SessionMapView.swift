import RewindSessionFile

/// The session map (`M`, issue 33): a two-column strip at the right edge of the timeline's rows, the whole session
/// (events 0…count) mapped onto their height, one row per slice — like an editor's scrollbar with its search marks.
///
/// Left column, what occurs in the slice (the most telling one): `E` an error, `D` a dropped row (states or actions
/// lost), `░` states not recorded (inside a dropped range), `J` a jump, `R` a replay, `~` a skip, `↳` a recomputed
/// branch, `C` a reconnect. Right column, the scrollbar: `◀` the cursor's slice, `◆` a slice with a match of the
/// label search, `█` the slices of the rows on screen (scattered when rows are hidden), `·` the rest. Letters and block characters carry every
/// meaning, so monochrome terminals lose nothing; colours (as the rows' markers) and reverse video (a match on
/// screen) only add to them. Pure rendering from the model's last computed map (`SessionMapState`), rescaled when
/// the session grew or the height changed since, so a frame costs a few dozen cell writes.
package struct SessionMapView {
    /// The strip's width in columns.
    package static let width = 2

    /// What to draw.
    package var model: TimelineModel

    /// Creates the view.
    package init(model: TimelineModel) {
        self.model = model
    }

    /// Draws the strip into `rect` (`width` columns, one row per slice).
    package func render(into buffer: inout ScreenBuffer, rect: Rect) {
        guard !rect.isEmpty, let session = model.selectedSession else { return }
        let count = session.eventCount
        let rows = rect.height
        let marks = Self.rowMarks(model.map?.session == session.id ? model.map?.mapped : nil, count: count, rows: rows)
        let range = 0...Int64(count)
        let cursor = SessionMap.bucket(of: Int64(model.cursor), in: range, buckets: rows)
        // The slices of the rows on screen (scattered when rows are hidden).
        var window = Set<Int>()
        for position in model.scrollTop..<(model.scrollTop + model.layout.timelineRows) {
            guard let index = model.index(atPosition: position) else { break }
            window.insert(SessionMap.bucket(of: Int64(index), in: range, buckets: rows))
        }
        for row in 0..<rows {
            let (glyph, style) = Self.eventGlyph(marks[row])
            buffer.put(glyph, row: rect.row + row, column: rect.column, style: style)
            guard rect.width > 1 else { continue }
            let track: (String, CellStyle)
            if row == cursor {
                track = ("◀", CellStyle(bold: true, reverse: true))
            } else if marks[row].contains(.match) {
                track = ("◆", window.contains(row) ? Theme.match.reversed : Theme.match)
            } else if window.contains(row) {
                track = ("█", Theme.plain)
            } else {
                track = ("·", Theme.dim)
            }
            buffer.put(track.0, row: rect.row + row, column: rect.column + 1, style: track.1)
        }
    }

    /// The left column's glyph for a slice: the most telling of its marks.
    package static func eventGlyph(_ marks: SessionMap.Marks) -> (String, CellStyle) {
        if marks.contains(.error) { return ("E", Theme.error) }
        if marks.contains(.dropped) { return ("D", Theme.warning) }
        if marks.contains(.unknown) { return ("░", CellStyle(foreground: .yellow)) }
        if marks.contains(.jump) { return ("J", Theme.marker(.jump)) }
        if marks.contains(.replay) { return ("R", Theme.marker(.replay)) }
        if marks.contains(.skip) { return ("~", Theme.marker(.skip)) }
        if marks.contains(.branch) { return ("↳", Theme.dim) }
        if marks.contains(.reconnect) { return ("C", Theme.marker(.reconnect)) }
        return (" ", Theme.plain)
    }

    /// The marks of each of `rows` slices of events 0…`count`, from `map` (computed for another count or height,
    /// perhaps): each row gathers the marks of the map's buckets that cover its events. Events past the map's range
    /// (recorded since) have none yet.
    package static func rowMarks(_ map: SessionMap?, count: Int, rows: Int) -> [SessionMap.Marks] {
        guard rows > 0 else { return [] }
        guard let map, !map.buckets.isEmpty else { return Array(repeating: [], count: rows) }
        let range = 0...Int64(max(0, count))
        if map.range == range && map.buckets.count == rows { return map.buckets }
        var result = Array(repeating: SessionMap.Marks(), count: rows)
        for row in 0..<rows {
            let first = SessionMap.firstIndex(ofBucket: row, in: range, buckets: rows)
            let last = min(SessionMap.firstIndex(ofBucket: row + 1, in: range, buckets: rows) - 1, map.range.upperBound)
            guard first <= range.upperBound, first <= last else { continue }
            for bucket in map.bucket(of: first)...map.bucket(of: last) { result[row].formUnion(map.buckets[bucket]) }
        }
        return result
    }
}
