/// What the stats view (`S`) and `rewind stats` show of a range of events: each action label's cost, and the single
/// slowest reducers and largest patches, each ranking counted in the same pass as the labels
/// (``LabelStatistics/Builder``). A plain value type.
package struct SessionStatistics: Sendable, Hashable {
    /// One event of a ranking: its index, the label the timeline shows for it and the measured quantity.
    package struct RankedEvent: Sendable, Hashable {
        /// The event's index.
        package var index: Int64
        /// Its label (`coalesce(label, kind)`).
        package var label: String
        /// A reducer's microseconds, or a patch's bytes.
        package var measure: Double

        /// An event with its measure.
        package init(index: Int64, label: String, measure: Double) {
            self.index = index
            self.label = label
            self.measure = measure
        }

        /// Whether `self` ranks before `other`: the larger measure first, then the earlier event.
        package func ranks(before other: RankedEvent) -> Bool {
            Self.ranks(measure: measure, index: index, before: other)
        }

        /// Whether an event of `measure` at `index` would rank before `other` (without making one: the builder asks
        /// for every row counted).
        package static func ranks(measure: Double, index: Int64, before other: RankedEvent) -> Bool {
            measure != other.measure ? measure > other.measure : index < other.index
        }
    }

    /// How many events each ranking keeps.
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
