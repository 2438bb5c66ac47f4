/// The actions of the benchmarks' stores.
///
/// Threading: a plain value; `Sendable`.
enum BenchAction: Codable, Equatable, Sendable {
    /// Sets the `value` of one item: a one-field change.
    case touch(section: Int, item: Int, value: Int)
    /// Sets the selection.
    case select(Int)
}
