/// What the detail pane shows for the selected event and tab. A plain value type.
public struct DetailContent: Sendable, Hashable {
    /// Shown at the right of the tab bar: `#42 todo/add`.
    public var title: String
    /// The content lines (scrolled by the pane).
    public var lines: [DetailLine]

    /// Creates content.
    public init(title: String, lines: [DetailLine]) {
        self.title = title
        self.lines = lines
    }
}
