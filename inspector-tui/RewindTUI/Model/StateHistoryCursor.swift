/// Where the user is in the state history of one location (`b` on a node of the State tab): the events that changed
/// the value at `path`, newest first, up to the event it was asked at (the newest `firstReadLimit` until the plot
/// thread has read them all), and the one the timeline shows.
/// Threading: a plain value, owned by the UI thread's model.
package struct StateHistoryCursor: Sendable, Hashable {
    /// The session.
    package var session: String
    /// The location, as JSON Pointer text.
    package var path: String
    /// The events that changed it, newest first.
    package var events: [Int]
    /// The position in `events` of the event selected.
    package var position: Int
    /// The event the history was asked at (the newest event it looks at; the value plot's strip ends there).
    package var through: Int
    /// Whether `events` holds every change, or only the newest `firstReadLimit` (read on the UI thread) while the
    /// plot thread reads the rest.
    package var complete: Bool

    /// How many changes `b` reads on the UI thread (a few index lookups, whatever the session's length); a longer
    /// history is read whole on the plot thread.
    package static let firstReadLimit = 1_000

    /// A cursor at `position`; `through` defaults to the newest change.
    package init(session: String, path: String, events: [Int], position: Int, through: Int? = nil,
                 complete: Bool = true) {
        self.session = session
        self.path = path
        self.events = events
        self.position = position
        self.through = max(through ?? events.first ?? 0, events.first ?? 0)
        self.complete = complete
    }

    /// The status line's text: the location, how many events changed it, the first few, and where the user is.
    package var summary: String {
        let place = path.isEmpty ? "the state" : path
        guard !events.isEmpty else { return "\(place): no event changed it (it is the initial state's value)" }
        let shown = events.prefix(8).enumerated().map { offset, event in
            offset == position ? "[#\(event)]" : "#\(event)"
        }.joined(separator: " ")
        let more = events.count > 8 ? " …" : ""
        let total = complete ? "\(events.count)" : "more than \(events.count)"
        let count = events.count == 1 && complete ? "1 event" : "\(total) events"
        return "\(place) changed by \(count), newest first: \(shown)\(more) — \(position + 1)/\(events.count)"
            + "\(complete ? "" : "+"); b older, B newer"
    }
}
