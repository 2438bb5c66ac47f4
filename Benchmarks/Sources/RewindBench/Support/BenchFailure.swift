/// A benchmark that could not run (the daemon did not start, a session was not recorded, a check failed). The run
/// stops with exit status 1, so that `make test` notices benchmarks that rotted.
///
/// Threading: a plain value; `Sendable`.
struct BenchFailure: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
