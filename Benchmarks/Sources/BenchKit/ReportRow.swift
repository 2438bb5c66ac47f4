/// One line of an area's table: a figure, its value, the target, the baseline it is compared against (measured in
/// the same run), the ratio, and whether the target is met.
///
/// Threading: a plain value; `Sendable`.
package struct ReportRow: Sendable, Hashable {
    /// What was measured (`added dispatch cost, 1 MB state`).
    package var figure: String
    /// The figure (the median, where several samples were taken).
    package var value: Quantity
    /// More about the value, printed after it (`p99 2.1 µs`, `n = 4,000`).
    package var detail: String?
    /// The target for it, if any.
    package var target: Target?
    /// What it is compared against, with that baseline's own value (`JSONEncoder: 14.2 ms`).
    package var baseline: String?
    /// The comparison with the baseline (`7.2× faster`).
    package var ratio: String?
    /// Whether the target is met: from `target` and `value` unless given explicitly; nil without a target.
    package var met: Bool?

    /// A row. `met` defaults to checking `value` against `target`.
    package init(_ figure: String, _ value: Quantity, detail: String? = nil, target: Target? = nil,
                baseline: String? = nil, ratio: String? = nil, met: Bool? = nil) {
        self.figure = figure
        self.value = value
        self.detail = detail
        self.target = target
        self.baseline = baseline
        self.ratio = ratio
        if let met {
            self.met = met
        } else if let target, let number = value.number, number.isFinite {
            self.met = target.isMet(by: number)
        } else {
            self.met = target == nil ? nil : false
        }
    }

    /// `met?` as the report writes it: `yes`, `**NO — missed**`, or `—`.
    package var verdict: String {
        switch met {
        case .some(true): return "yes"
        case .some(false): return "**NO — missed**"
        case .none: return "—"
        }
    }
}
