import ArgumentParser
import Foundation
import RewindWire

/// `rewind diff A.json B.json`: prints the JSON Patch (RFC 6902) that turns A into B.
/// `rewind diff SESSION A B`: the patch between the recorded states after events A and B of a session.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Print the JSON Patch (RFC 6902) between two JSON documents, or between two events' states.",
        discussion: """
            With two files: either may be '-' for standard input; prints the patch as JSON ([] when equal). \
            With a session and two event numbers: the patch that turns the state after A into the state after B \
            (each on its own branch; 0 is the initial state), one operation per line, or as JSON with --json. \
            --pointer compares only the values at a JSON Pointer.
            """
    )

    @Argument(help: ArgumentHelp("FROM TO (two JSON files), or SESSION A B (a session and two event numbers).",
                                 valueName: "args"))
    var arguments: [String] = []

    @Flag(name: .long, help: "Pretty-print the patch.")
    var pretty = false

    @Flag(name: .long, help: "Session form: print the patch as JSON.")
    var json = false

    @Option(name: .long, help: ArgumentHelp("Session form: compare only the values at this JSON Pointer.",
                                            valueName: "p"))
    var pointer: String?

    @OptionGroup var data: DataOptions

    func validate() throws {
        guard arguments.count == 2 || arguments.count == 3 else {
            throw ValidationError("expected FROM TO (two JSON files) or SESSION A B (a session and two event numbers)")
        }
        if arguments.count == 3 {
            for text in arguments.dropFirst() where Int64(text).map({ $0 < 0 }) ?? true {
                throw ValidationError("'\(text)' is not an event number (0 or more)")
            }
        } else if pointer != nil {
            throw ValidationError("--pointer needs the session form: rewind diff SESSION A B --pointer /p")
        } else if arguments == ["-", "-"] {
            throw ValidationError("only one of FROM and TO may be '-': standard input is read once (give the other "
                + "as a file)")
        } else if let number = arguments.first(where: { Int64($0) != nil && !FileManager.default.fileExists(atPath: $0) }) {
            // `rewind diff S 3`: a session and one event (B forgotten), not two files.
            let event = Int64(arguments[1]) ?? 1, session = Int64(arguments[0]) == nil ? arguments[0] : "SESSION"
            throw ValidationError("'\(number)' is not a file: diff compares the states after two events (SESSION A "
                + "B, e.g. 'rewind diff \(session) \(max(0, event - 1)) \(max(1, event))') or two JSON files (FROM TO)")
        }
    }

    func run() throws {
        if arguments.count == 2 {
            let a = try InputFile.readJSON(arguments[0])
            let b = try InputFile.readJSON(arguments[1])
            let patch = JSONPatch.diff(from: a, to: b)
            CommandStreams.current.printLine(pretty ? patch.json.prettyPrinted() : patch.json.serialized())
            return
        }
        let reader = try SessionArguments.open(arguments[0], data: data)
        let from = Int64(arguments[1]) ?? 0
        let to = Int64(arguments[2]) ?? 0
        var a = try SessionArguments.state(after: from, in: reader)
        var b = try SessionArguments.state(after: to, in: reader)
        if let pointer {
            a = try SessionArguments.value(at: pointer, in: a, after: from)
            b = try SessionArguments.value(at: pointer, in: b, after: to)
        }
        let patch = JSONPatch.diff(from: a, to: b)
        if json || pretty {
            CommandStreams.current.printLine(pretty ? patch.json.prettyPrinted() : patch.json.serialized())
            return
        }
        if patch.isEmpty {
            CommandStreams.current.printLine("the states after events \(from) and \(to) are equal" + (pointer.map { " at \($0)" } ?? ""))
            return
        }
        for operation in patch.operations { CommandStreams.current.printLine(DiffCommand.describe(operation)) }
    }

    /// One operation on one line: `replace /count 5`, `remove /todos/2`, `move /a -> /b`.
    static func describe(_ operation: JSONPatchOperation) -> String {
        func shown(_ pointer: JSONPointer) -> String { pointer.isRoot ? "''" : TerminalText.escaped(pointer.description) }
        switch operation {
        case .add(let path, let value), .replace(let path, let value), .test(let path, let value):
            return "\(operation.name) \(shown(path)) \(TerminalText.escaped(value.serialized()))"
        case .remove(let path):
            return "remove \(shown(path))"
        case .move(let from, let path), .copy(let from, let path):
            return "\(operation.name) \(shown(from)) -> \(shown(path))"
        }
    }
}
