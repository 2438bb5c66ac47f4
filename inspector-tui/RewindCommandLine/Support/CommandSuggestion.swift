/// A mistyped subcommand (`rewind sesions`), caught before the argument parser hands it to the default subcommand
/// (`serve`, whose usage would be printed instead): the error names the closest commands.
///
/// Threading: pure functions.
enum CommandSuggestion {
    /// The error for `arguments` (without the program name) when their first one is neither an option nor one of
    /// `commands` (nor `help`); nil when the arguments are fine to parse.
    static func error(for arguments: [String], commands: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-"), !commands.contains(first), first != "help" else {
            return nil
        }
        let close = commands
            .map { (name: $0, distance: editDistance(first.lowercased(), $0)) }
            .filter { $0.distance <= max(1, min($0.name.count, first.count) / 3) || $0.name.hasPrefix(first.lowercased()) }
            .sorted { ($0.distance, $0.name) < ($1.distance, $1.name) }
            .map { "'\($0.name)'" }
        let list = commands.joined(separator: ", ")
        guard !close.isEmpty else {
            return "'\(first)' is not a rewind command (commands: \(list); see 'rewind --help')"
        }
        let suggestion = close.count == 1 ? close[0]
            : close.dropLast().joined(separator: ", ") + " or " + (close.last ?? "")
        return "'\(first)' is not a rewind command. Did you mean \(suggestion)? (commands: \(list))"
    }

    /// The Levenshtein distance between `a` and `b` (insertions, deletions, substitutions).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
