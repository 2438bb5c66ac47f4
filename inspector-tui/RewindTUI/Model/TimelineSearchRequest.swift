/// One search the controller asks for (`/` submitted, `n`, `N`): the app runs it off the UI thread and reports
/// the result back with `TimelineController.finishSearch`. A plain value type.
package struct TimelineSearchRequest: Sendable, Hashable {
    /// The session searched.
    package var session: String
    /// What is looked for.
    package var query: TimelineSearchQuery
    /// The first event looked at (1…`count`).
    package var start: Int
    /// Towards the newest event (true) or the oldest.
    package var forward: Bool
    /// The session's event count when the search started (the search covers 1…count, wrapping once).
    package var count: Int
    /// Whether to say so when the search wrapped around (`n`/`N`; not the first search of a new query).
    package var announceWrap: Bool

    /// Creates a request.
    package init(session: String, query: TimelineSearchQuery, start: Int, forward: Bool, count: Int,
                announceWrap: Bool) {
        self.session = session
        self.query = query
        self.start = start
        self.forward = forward
        self.count = count
        self.announceWrap = announceWrap
    }
}
