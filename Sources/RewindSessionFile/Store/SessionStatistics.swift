/// What the stats view (`S`) and `rewind stats` show of a range of events: each action label's cost, and the single
/// slowest reducers and largest patches, each ranking counted in the same pass as the labels
/// (``LabelStatistics/Builder``). A plain value type.
package struct SessionStatistics: Sendable, Hashable {
    /// How many events each ranking keeps unless told otherwise (the stats view's tables).
    package static let rankingLimit = 50

    /// Each label's cost, most frequent first.
    package var labels: [LabelStatistics]
    /// The events whose reducer took longest, slowest first (at most ``rankingLimit``).
    package var slowest: [RankedEvent]
    /// The events whose stored patch is largest in bytes, largest first (at most ``rankingLimit``).
    package var largest: [RankedEvent]

    /// Statistics made of these parts.
    package init(labels: [LabelStatistics], slowest: [RankedEvent], largest: [RankedEvent]) {
        self.labels = labels
        self.slowest = slowest
        self.largest = largest
    }
}
