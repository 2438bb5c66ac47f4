import Foundation

/// `rewind-bench`'s command line.
///
/// ```
/// rewind-bench [--quick] [--output FILE] [--only AREA[,AREA…]] [--command TEXT]
/// ```
///
/// Threading: a plain value; `Sendable`.
struct BenchOptions: Sendable {
    /// Smaller sessions and shorter runs (a smoke test: about 4 minutes on a 2-processor machine).
    var quick = false
    /// Where the Markdown report goes; nil: standard output only gets the summary.
    var output: String?
    /// Only these areas (by their ``BenchArea`` raw values); empty: all.
    var only: Set<BenchArea> = []
    /// The command written into the report as the one that produced it.
    var command: String?

    static let usage = """
        rewind-bench — Rewind's benchmarks; rewrites BENCHMARKS.md (run through `make bench`).

        Usage: rewind-bench [--quick] [--output FILE] [--only AREA,…] [--command TEXT]
          --quick          smaller sessions and short runs (about 4 minutes); figures are indicative only
          --output FILE    write the Markdown report to FILE
          --only AREAS     run only these areas: \(BenchArea.allCases.map(\.rawValue).joined(separator: ", "))
          --command TEXT   the command to name in the report (default: make bench)
        Exit status: 0 when every benchmark ran (missed targets are reported, not failures), 1 when one failed,
        2 for a bad command line.
        """

    /// Parses `arguments` (without the program name). Throws a message for a bad command line, or nil for `--help`.
    init(_ arguments: [String]) throws(BenchUsageError) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--quick":
                quick = true
            case "--output", "-o":
                guard let value = rest.popFirst() else { throw BenchUsageError("\(argument) needs a file") }
                output = value
            case "--only":
                guard let value = rest.popFirst() else { throw BenchUsageError("--only needs a list of areas") }
                for name in value.split(separator: ",") {
                    guard let area = BenchArea(rawValue: String(name)) else {
                        throw BenchUsageError("--only: unknown area '\(name)'")
                    }
                    only.insert(area)
                }
            case "--command":
                guard let value = rest.popFirst() else { throw BenchUsageError("--command needs a text") }
                command = value
            case "-h", "--help":
                throw BenchUsageError(nil)
            default:
                throw BenchUsageError("unknown option '\(argument)'")
            }
        }
    }

    /// True when `area` is to run.
    func runs(_ area: BenchArea) -> Bool {
        only.isEmpty || only.contains(area)
    }
}
