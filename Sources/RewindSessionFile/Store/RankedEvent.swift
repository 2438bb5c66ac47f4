/// One event of a ranking of single events (the slowest reducers, the largest patches): which event, on which
/// branch, the label the timeline shows for it and the quantity it is ranked by. Made by the labels' pass
/// (``LabelStatistics/Builder``) for `rewind stats`, the timeline's stats view and `rewind mcp`'s
/// `session_statistics`. A plain value type.
package struct RankedEvent: Sendable, Hashable {
    /// The event's index.
    package var index: Int64
    /// The branch it is on (0: the main line).
    package var branch: Int64
    /// Its label (`coalesce(label, kind)`).
    package var label: String
    /// A reducer's microseconds, or a patch's bytes (of its stored JSON text).
    package var measure: Double

    /// An event with its measure.
    package init(index: Int64, branch: Int64 = 0, label: String, measure: Double) {
        self.index = index
        self.branch = branch
        self.label = label
        self.measure = measure
    }

    /// Whether `self` ranks before `other`: the larger measure first, then the earlier event.
    package func ranks(before other: RankedEvent) -> Bool {
        Self.ranks(measure: measure, index: index, before: other)
    }

    /// Whether an event of `measure` at `index` would rank before `other` (without making one: the builder asks for
    /// every row counted).
    package static func ranks(measure: Double, index: Int64, before other: RankedEvent) -> Bool {
        measure != other.measure ? measure > other.measure : index < other.index
    }
}
