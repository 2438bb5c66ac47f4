/// The areas of the table, in the order the report presents them.
///
/// Threading: a plain value; `Sendable`.
enum BenchArea: String, CaseIterable, Sendable, Hashable {
    case appThread = "app-thread"
    case outOfProcess = "out-of-process"
    case recorderPath = "recorder-path"
    case encode
    case memo
    case wire
    case ingest
    case seek
    case history
    case tui
    case search
    case timeTravel = "time-travel"
    case mcp
}
