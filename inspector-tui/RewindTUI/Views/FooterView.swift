/// The bottom row: the keys that apply in the focused pane or the open dialog (`key action` pairs), cut with
/// `…` when the terminal is narrow. Pure rendering.
public struct FooterView {
    /// The model to draw.
    public var model: TimelineModel

    /// Creates the view.
    public init(model: TimelineModel) {
        self.model = model
    }

    /// Draws into `rect` (its first row).
    public func render(into buffer: inout ScreenBuffer, rect: Rect) {
        guard !rect.isEmpty else { return }
        buffer.fill(rect.top(1))
        var spans: [TextSpan] = [TextSpan(" ")]
        for (offset, binding) in KeyBindings.footer(for: model).enumerated() {
            if offset > 0 { spans.append(TextSpan("  ")) }
            spans.append(TextSpan(binding.keys, Theme.key))
            spans.append(TextSpan(" " + binding.action, Theme.dim))
        }
        buffer.put(spans, row: rect.row, column: rect.column, width: rect.width)
    }
}
