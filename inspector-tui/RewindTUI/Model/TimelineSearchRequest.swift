/// One search the controller asks for (`/` submitted, `n`, `N`): the app runs it off the UI thread and reports
/// the result back with `TimelineController.finishSearch`. A plain value type.
public struct TimelineSearchRequest: Sendable, Hashable {
    /// The session searched.
    public var session: String
    /// What is looked for.
    public var query: TimelineSearchQuery
    /// The first event looked at (1…`count`).
    public var start: Int
    /// Towards the newest event (true) or the oldest.
    public var forward: Bool
    /// The session's event count when the search started (the search covers 1…count, wrapping once).
    public var count: Int
    /// Whether to say so when the search wrapped around (`n`/`N`; not the first search of a new query).
    public var announceWrap: Bool

    /// Creates a request.
    public init(session: String, query: TimelineSearchQuery, start: Int, forward: Bool, count: Int,
                announceWrap: Bool) {
        self.session = session
        self.query = query
        self.start = start
        self.forward = forward
        self.count = count
        self.announceWrap = announceWrap
    }
}
