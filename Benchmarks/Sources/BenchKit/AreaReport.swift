/// The results of one area (app thread, encode, ingest…): how it was measured, its table, and notes.
///
/// Threading: a plain value; `Sendable`.
package struct AreaReport: Sendable, Hashable {
    /// The area's heading.
    package var title: String
    /// How the figures were measured (a paragraph of Markdown).
    package var method: String
    /// The table.
    package var rows: [ReportRow]
    /// Observations after the table (each a Markdown paragraph or bullet).
    package var notes: [String]
    /// Wall time the area took, seconds.
    package var seconds: Double
    /// The share of the machine's processors other processes kept busy while the area ran (NaN: unknown).
    package var othersShare: Double = .nan
    /// The share of the machine's processors the benchmark itself used while the area ran (NaN: unknown).
    package var ownShare: Double = .nan

    /// An area's results.
    package init(title: String, method: String, rows: [ReportRow] = [], notes: [String] = [], seconds: Double = 0) {
        self.title = title
        self.method = method
        self.rows = rows
        self.notes = notes
        self.seconds = seconds
    }

    /// The rows whose target is missed.
    package var misses: [ReportRow] { rows.filter { $0.met == false } }
}
