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

    /// The diff of two lists of lines. Common lines are shown when they are near a change (``context``) or
    /// enclose one (the openers and closers of the structures around it); other runs are folded.
    static func diff(_ old: [String], _ new: [String]) -> String {
        let operations = lineOperations(old, new)
        let keep = visibleLines(operations)
        var lines: [String] = []
        var index = 0
        while index < operations.count {
            let (mark, text) = operations[index]
            guard !keep[index] else {
                lines.append("\(mark) \(text)")
                index += 1
                continue
            }
            var end = index
            while end < operations.count && !keep[end] {
                end += 1
            }
            if end - index == 1 {
                lines.append("  \(text)")
            } else {
                let indentation = String(repeating: " ", count: indent(of: text))
                lines.append("  \(indentation)… (\(end - index) unchanged lines)")
            }
            index = end
        }
        return lines.joined(separator: "\n")
    }

    /// Which lines of the edit script stay visible.
    private static func visibleLines(_ operations: [(Character, String)]) -> [Bool] {
        let changed = operations.indices.filter { operations[$0].0 != " " }
        guard !changed.isEmpty else { return Array(repeating: true, count: operations.count) }
        var keep = operations.map { $0.0 != " " }
        for line in changed {
            for near in max(0, line - context)...min(operations.count - 1, line + context) {
                keep[near] = true
            }
            var level = indent(of: operations[line].1)
            for before in stride(from: line - 1, through: 0, by: -1) where indent(of: operations[before].1) < level {
                keep[before] = true
                level = indent(of: operations[before].1)
            }
            level = indent(of: operations[line].1)
            for after in (line + 1)..<max(line + 1, operations.count) where indent(of: operations[after].1) < level {
                keep[after] = true
                level = indent(of: operations[after].1)
            }
        }
        return keep
    }

    private static func indent(of text: String) -> Int {
        text.prefix { $0 == " " }.count
    }

    /// The edit script between `old` and `new`, deletions before insertions: common leading and trailing lines,
    /// then a longest common subsequence of the differing middle.
    private static func lineOperations(_ old: [String], _ new: [String]) -> [(Character, String)] {
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] {
            prefix += 1
        }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix,
              old[old.count - 1 - suffix] == new[new.count - 1 - suffix] {
            suffix += 1
        }
        let middle = middleOperations(Array(old[prefix..<(old.count - suffix)]),
                                      Array(new[prefix..<(new.count - suffix)]))
        return old[..<prefix].map { (" ", $0) } + middle + old[(old.count - suffix)...].map { (" ", $0) }
    }

    private static func middleOperations(_ old: [String], _ new: [String]) -> [(Character, String)] {
        let n = old.count
        let m = new.count
        guard n * m <= 1_000_000 else {
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
