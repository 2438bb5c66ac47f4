/// An event number below zero (`rewind jump S -3`): the argument parser reads `-3` as an option and says "Missing
/// expected argument '<seq>'", which misses the point; this names the argument and the valid range instead.
///
/// Threading: pure functions.
enum NegativeEventNumber {
    /// The commands whose numeric arguments are event numbers.
    static let commands: Set<String> = ["jump", "skip", "state", "diff"]

    /// The error for `arguments` (without the program name) when they run one of ``commands`` with an argument such
    /// as `-3` standing where an argument goes (not after an option that takes a value, nor after `--`); nil
    /// otherwise.
    static func error(for arguments: [String]) -> String? {
        guard let command = arguments.first, commands.contains(command) else { return nil }
        var previous = command
        for argument in arguments.dropFirst() {
            if argument == "--" { return nil }
            if isNegativeNumber(argument) && !(previous.hasPrefix("--") && !previous.contains("=")) {
                return "'\(argument)' is not an event number: events are numbered from 0 (the initial state) to the "
                    + "session's last event (its EVENTS in 'rewind sessions')"
            }
            previous = argument
        }
        return nil
    }

    /// True for `-3`, `-0`, `-1.5`: a minus sign followed by a number.
    static func isNegativeNumber(_ text: String) -> Bool {
        guard text.hasPrefix("-") else { return false }
        let digits = text.dropFirst()
        return !digits.isEmpty && Double(digits) != nil && digits.first?.isNumber == true
    }
}
