/// Filter as you type (issue 33): while the `/` prompt is open, the list narrows to the rows whose label matches what
/// is typed, a moment (``debounce``) after the last key, the rows computed off the UI thread (`RowFilterRunner`).
/// This keeps the view the prompt opened on, which Esc gives back (Enter keeps the narrowed one), and the text
/// waiting for its debounce. A plain value type.
package struct FilterPreview: Sendable, Hashable {
    /// How long after the last key the typed text is previewed (seconds).
    package static let debounce = 0.15

    /// The label filter when the prompt opened.
    package var filter: TimelineLabelFilter?
    /// The search (`n`/`N`) when the prompt opened.
    package var searchQuery: TimelineSearchQuery?
    /// The hidden rows when the prompt opened (with their computed rows).
    package var hiding: TimelineRowFilter?
    /// The cursor when the prompt opened.
    package var cursor: Int
    /// The first row shown when the prompt opened.
    package var scrollTop: Int
    /// Whether the cursor followed live events when the prompt opened.
    package var following: Bool
    /// When (monotonic seconds) the typed text is due to be previewed; nil when nothing waits.
    package var dueAt: Double?
    /// The text the list shows the preview of ("": the view the prompt opened on).
    package var shownText = ""

    /// The view of `model` as the prompt opens on it.
    package init(of model: TimelineModel) {
        filter = model.filter
        searchQuery = model.searchQuery
        hiding = model.hiding
        cursor = model.cursor
        scrollTop = model.scrollTop
        following = model.following
    }
}
