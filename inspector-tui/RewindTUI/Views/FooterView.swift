/// The bottom row: the keys that apply in the focused pane or the open dialog (`key action` pairs), cut with
/// `…` when the terminal is narrow. Pure rendering.
package struct FooterView {
    /// The model to draw.
    package var model: TimelineModel
    /// The selected row, when the timeline has read it (the hints depend on it: see `KeyBindings.footer`).
    package var cursorEvent: TimelineEvent?
    /// The detail pane's line under its cursor (the detail pane's hints depend on it).
    package var detailLine: DetailLine?

    /// Creates the view.
    package init(model: TimelineModel, cursorEvent: TimelineEvent? = nil, detailLine: DetailLine? = nil) {
        self.model = model
        self.cursorEvent = cursorEvent
        self.detailLine = detailLine
    }

    /// Draws into `rect` (its first row): the pane's hints from the left, as many whole ones as fit, and
    /// `? help  q quit` at the right end.
    package func render(into buffer: inout ScreenBuffer, rect: Rect) {
        guard !rect.isEmpty else { return }
        buffer.fill(rect.top(1))
        let tail = model.dialog == nil ? Self.spans(KeyBindings.footerTail) : []
        let tailWidth = DisplayWidth.of(tail.map(\.text).joined())
        var available = rect.width - 1 - (tailWidth > 0 ? tailWidth + 2 : 0)
        if available < 10 { available = rect.width - 1 }
        var column = rect.column + 1
        for binding in KeyBindings.footer(for: model, cursorEvent: cursorEvent, detailLine: detailLine) {
            let spans = Self.spans([binding])
            let width = DisplayWidth.of(spans.map(\.text).joined())
            guard width <= available - (column - rect.column - 1) else { break }
            column += buffer.put(spans, row: rect.row, column: column, width: width) + 2
        }
        if tailWidth > 0 && tailWidth + 1 <= rect.width - (column - rect.column) {
            buffer.put(tail, row: rect.row, column: rect.right - tailWidth - 1, width: tailWidth)
        }
    }

    private static func spans(_ bindings: [KeyBindings.Binding]) -> [TextSpan] {
        var spans: [TextSpan] = []
        for (offset, binding) in bindings.enumerated() {
            if offset > 0 { spans.append(TextSpan("  ")) }
            spans.append(TextSpan(binding.keys, Theme.key))
            spans.append(TextSpan(" " + binding.action, Theme.dim))
        }
        return spans
    }
}
