import RewindSessionFile

/// The plot of a value's history (`b`/`B` on a node of the State tab): what was asked of the plot thread, and what
/// it answered — the value after each column's change, and the strip of where the changes lie along the session.
/// Threading: a plain value, owned by the UI thread's model; the answer is computed on the plot thread.
package struct HistoryPlotState: Sendable, Hashable {
    /// What the plot thread is asked: the history's session, location and extent, and the plot's width.
    package struct Request: Sendable, Hashable {
        /// The session.
        package var session: String
        /// The location, as JSON Pointer text.
        package var path: String
        /// The event the history was asked at (the strip runs from the initial state to it).
        package var through: Int
        /// The plot's width in columns.
        package var width: Int

        /// A request.
        package init(session: String, path: String, through: Int, width: Int) {
            self.session = session
            self.path = path
            self.through = through
            self.width = width
        }
    }

    /// What the plot thread answers.
    package struct Answer: Sendable, Hashable {
        /// The value after each column's change (`HistoryPlotColumns`), left to right.
        package var values: [RecordedValue]
        /// For each of `width` slices of the events 0…`through` (fewer when there are fewer events), whether a
        /// change lies in it.
        package var strip: [Bool]
        /// Every change, newest first, when the history the plot was asked for held only the newest ones
        /// (`StateHistoryCursor.complete` false): the controller moves them into the history and drops them here.
        package var events: [Int]?

        /// An answer.
        package init(values: [RecordedValue], strip: [Bool], events: [Int]? = nil) {
            self.values = values
            self.strip = strip
            self.events = events
        }

        /// Whether the values are drawn as a plot: at least one is a number, and every value there is (absent and
        /// unknown ones aside) is a number. Otherwise the strip of changes is shown.
        package var isNumeric: Bool {
            values.contains { $0.number != nil } && values.allSatisfy { $0.number != nil || $0.json == nil }
        }
    }

    /// What was asked.
    package var request: Request
    /// The answer, once it arrived.
    package var answer: Answer?
    /// Why it could not be computed, if it could not.
    package var failure: String?
    /// Whether the request was handed to the plot thread (`TimelineController.historyPlotToCompute()`).
    package var handedOut = false

    /// A plot asked, not answered yet.
    package init(request: Request) {
        self.request = request
    }
}
