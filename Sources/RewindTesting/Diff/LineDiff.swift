/// A line diff of two texts, printed with `- ` for lines only in the expected text, `+ ` for lines only in the
/// actual one and two spaces for common lines; long runs of common lines are folded.
///
/// Threading: stateless; callable from any thread.
enum LineDiff {
    /// How many common lines are kept around each change.
    static let context = 3

    /// The diff of the dumps of `expected` and `actual`.
    static func of(expected: Any, actual: Any) -> String {
        diff(ValueDump.lines(of: expected), ValueDump.lines(of: actual))
    }

    /// The diff of two lists of lines.
    static func diff(_ old: [String], _ new: [String]) -> String {
        let operations = lineOperations(old, new)
        let changed = operations.indices.filter { operations[$0].0 != " " }
        var lines: [String] = []
        var index = 0
        while index < operations.count {
            let (mark, text) = operations[index]
            if mark != " " {
                lines.append("\(mark) \(text)")
                index += 1
                continue
            }
            var end = index
            while end < operations.count && operations[end].0 == " " {
                end += 1
            }
            let runStartsFile = index == 0
            let runEndsFile = end == operations.count
            let keepBefore = runStartsFile ? 0 : context
            let keepAfter = runEndsFile ? 0 : context
            let length = end - index
            if changed.isEmpty || length <= keepBefore + keepAfter + 1 {
                lines += operations[index..<end].map { "  \($0.1)" }
            } else {
                lines += operations[index..<(index + keepBefore)].map { "  \($0.1)" }
                lines.append("  … (\(length - keepBefore - keepAfter) unchanged lines)")
                lines += operations[(end - keepAfter)..<end].map { "  \($0.1)" }
            }
            index = end
        }
        return lines.joined(separator: "\n")
    }

    /// The edit script between `old` and `new` (longest common subsequence), deletions before insertions.
    private static func lineOperations(_ old: [String], _ new: [String]) -> [(Character, String)] {
        let n = old.count
        let m = new.count
        guard n * m <= 4_000_000 else {
            return old.map { ("-", $0) } + new.map { ("+", $0) }
        }
        var lengths = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                lengths[i][j] = old[i] == new[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var result: [(Character, String)] = []
        var i = 0
        var j = 0
        while i < n || j < m {
            if i < n, j < m, old[i] == new[j] {
                result.append((" ", old[i]))
                i += 1
                j += 1
            } else if i < n, j == m || lengths[i + 1][j] >= lengths[i][j + 1] {
                result.append(("-", old[i]))
                i += 1
            } else {
                result.append(("+", new[j]))
                j += 1
            }
        }
        return result
    }
}
