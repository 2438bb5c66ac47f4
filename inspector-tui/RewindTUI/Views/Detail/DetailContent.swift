/// What the detail pane shows for the selected event and tab. A plain value type.
package struct DetailContent: Sendable, Hashable {
    /// Shown at the right of the tab bar: `#42 todo/add`.
    package var title: String
    /// The content lines (scrolled by the pane).
    package var lines: [DetailLine]

    /// Creates content.
    package init(title: String, lines: [DetailLine]) {
        self.title = title
        self.lines = lines
    }
}
