/// How far an export or import has come, reported to a progress callback.
/// Threading: a plain value; `Sendable`.
package struct TransferProgress: Sendable, Hashable {
    /// What `completed` and `total` count.
    package enum Unit: String, Sendable, Hashable {
        /// Events written (exports).
        case events
        /// Bytes of the input file read (imports).
        case bytes
    }

    /// How much is done.
    package var completed: Int64
    /// How much there is in all (`completed == total` at the end).
    package var total: Int64
    /// What is counted.
    package var unit: Unit

    /// A progress report.
    package init(completed: Int64, total: Int64, unit: Unit) {
        self.completed = completed
        self.total = total
        self.unit = unit
    }

    /// `completed / total` between 0 and 1 (1 when there is nothing to do).
    package var fraction: Double {
        total > 0 ? min(1, Double(completed) / Double(total)) : 1
    }
}
