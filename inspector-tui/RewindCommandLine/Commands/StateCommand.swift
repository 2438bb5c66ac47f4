import ArgumentParser
import RewindWire

/// `rewind state SESSION SEQ [--pointer /p] [--json]`: the recorded state after one event.
struct StateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "state",
        abstract: "Print the recorded state after an event (0: the initial state).",
        discussion: """
            The state of the event's own branch, as the timeline's State tab shows it. Pretty-printed; with \
            --json compact on one line. --pointer prints only the value at a JSON Pointer.
            """
    )

    @Argument(help: "The session id, or a unique prefix of it (see 'rewind sessions').")
    var session: String

    @Argument(help: ArgumentHelp("The event number.", valueName: "seq"))
    var seq: Int64

    @Option(name: .long, help: ArgumentHelp("Only the value at this JSON Pointer, e.g. /todos/0.", valueName: "p"))
    var pointer: String?

    @Flag(name: .long, help: "Compact JSON on one line.")
    var json = false

    @OptionGroup var data: DataOptions

    func validate() throws {
        if seq < 0 { throw ValidationError("SEQ must be an event number (0 or more)") }
    }

    func run() throws {
        let reader = try SessionArguments.open(session, data: data)
        var value = try SessionArguments.state(after: seq, in: reader)
        if let pointer { value = try SessionArguments.value(at: pointer, in: value, after: seq) }
        CommandStreams.current.printLine(json ? value.serialized() : value.prettyPrinted())
    }
}
