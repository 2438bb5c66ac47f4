import BenchKit
import Foundation

/// What every area gets: the mode, the choice between full and quick sizes, and a progress log on standard error.
///
/// Threading: a plain value; `Sendable`. `progress` writes to standard error from any thread.
struct BenchContext: Sendable {
    /// True in `--quick` mode.
    let quick: Bool
    /// When the run started (monotonic seconds), for the progress log.
    let startedAt: Double

    /// `full` in a full run, `quick` in quick mode.
    func pick<T>(full: T, quick quickValue: T) -> T {
        quick ? quickValue : full
    }

    /// Writes `line` to standard error, prefixed with the time since the start of the run.
    func progress(_ line: String) {
        let elapsed = MonotonicClock.seconds() - startedAt
        FileHandle.standardError.write(Data((String(format: "[%6.1fs] ", elapsed) + line + "\n").utf8))
    }
}
