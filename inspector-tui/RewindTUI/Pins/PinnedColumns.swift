import RewindSessionFile
import RewindWire

/// The pinned watches' columns at the right of the timeline's rows (left of the session map): one compact column per
/// pin, headed by the pointer's last token, each row showing the value after that row's event — compact JSON,
/// right-aligned, cut with `…`; `—` when the state has nothing there; `?` when the state after the row is not
/// recorded; a dim `·` until the value has been read (off the UI thread). As many pins as fit while the rows keep
/// `minimumRowsWidth` columns. Pure layout and text: safe from any thread.
package struct PinnedColumns: Sendable, Hashable {
    /// Each pin's column, its separating space included.
    package static let columnWidth = 10
    /// The columns the rows keep (index, time, marker, a label, the ops column) before pins take any.
    package static let minimumRowsWidth = 42
    /// What a row shows before its value is read.
    package static let placeholder = "·"
    /// What a row shows when the state after it has nothing at the pointer.
    package static let absent = "—"
    /// What a row shows when the state after it is not recorded.
    package static let unknown = "?"

    /// The pinned pointers shown, in column order.
    package let pointers: [String]

    /// The columns for `pinned` pointers in a timeline whose rows (without the session map) are `width` wide.
    package init(pinned: [String], width: Int) {
        let room = max(0, (width - Self.minimumRowsWidth) / Self.columnWidth)
        pointers = Array(pinned.prefix(room))
    }

    /// The columns' total width.
    package var width: Int { pointers.count * Self.columnWidth }

    /// The heading of a pin's column: its pointer's last token (`/` for the whole state).
    package static func heading(_ pointer: String) -> String {
        guard let parsed = try? JSONPointer(pointer), let last = parsed.tokens.last else { return "/" }
        return last
    }

    /// The text a row shows for `value` (nil: not read yet), cut to the column.
    package static func text(_ value: RecordedValue?) -> String {
        switch value {
        case nil: return placeholder
        case .absent: return absent
        case .unknown: return unknown
        case .value(let json): return JSONPreview.text(json, limit: columnWidth * 2)
        }
    }

    /// The style of that text.
    package static func style(_ value: RecordedValue?) -> CellStyle {
        switch value {
        case nil, .absent: return Theme.dim
        case .unknown: return Theme.unknown
        case .value(let json): return JSONPreview.style(of: json)
        }
    }
}
