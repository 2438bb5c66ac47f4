import RewindSessionFile

/// The timeline's styles, in one place.
///
/// Every meaning carried by colour is also carried by a symbol or an attribute, so the monochrome fallback
/// (where the painter drops colours) stays readable: bars and selections use reverse video, diff lines start with
/// `+`, `-`, `~`, `»`, errors are bold. Immutable constants: safe from any thread.
package enum Theme {
    /// Header bar and the focused pane's title.
    package static let bar = CellStyle(bold: true, reverse: true)
    /// A pane title when the pane is not focused.
    package static let title = CellStyle(bold: true, underline: true)
    /// Column headings.
    package static let heading = CellStyle(dim: true, underline: true)
    /// The selected row.
    package static let selection = CellStyle(reverse: true)
    /// Secondary text.
    package static let dim = CellStyle(dim: true)
    /// Plain text.
    package static let plain = CellStyle.plain
    /// A key name in the footer and the help.
    package static let key = CellStyle(foreground: .cyan, bold: true)
    /// Errors.
    package static let error = CellStyle(foreground: .red, bold: true)
    /// Warnings and the "N new" indicator.
    package static let warning = CellStyle(foreground: .yellow, bold: true)
    /// Good news: live sessions, recording.
    package static let good = CellStyle(foreground: .green, bold: true)
    /// Added values in the diff.
    package static let added = CellStyle(foreground: .green)
    /// Removed values in the diff.
    package static let removed = CellStyle(foreground: .red)
    /// Replaced values in the diff.
    package static let changed = CellStyle(foreground: .yellow)
    /// Moved or copied values in the diff.
    package static let moved = CellStyle(foreground: .blue)
    /// Object keys in JSON.
    package static let jsonKey = CellStyle(foreground: .cyan)
    /// JSON strings.
    package static let jsonString = CellStyle(foreground: .green)
    /// JSON numbers.
    package static let jsonNumber = CellStyle(foreground: .magenta)
    /// JSON `true`, `false`, `null`.
    package static let jsonLiteral = CellStyle(foreground: .yellow)
    /// A state the recording does not hold ("state unknown": inside a `dropped` range); always paired with the
    /// words or a `?`.
    package static let unknown = CellStyle(foreground: .yellow, underline: true)
    /// A filter match in the timeline.
    package static let match = CellStyle(foreground: .yellow, bold: true)

    /// The marker style for an event kind.
    package static func marker(_ kind: EventKind) -> CellStyle {
        switch kind {
        case .action: return plain
        case .snapshot: return CellStyle(foreground: .green)
        case .dropped: return warning
        case .error: return error
        case .jump: return CellStyle(foreground: .cyan, bold: true)
        case .replay: return CellStyle(foreground: .magenta, bold: true)
        case .reconnect: return CellStyle(foreground: .blue, bold: true)
        case .skip: return dim
        case .dispatch: return CellStyle(foreground: .cyan)
        case .note: return dim
        }
    }
}
