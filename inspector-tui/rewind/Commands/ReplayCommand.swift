import ArgumentParser
import RewindWire

/// `rewind replay SESSION [--into LIVE-SESSION] [--from N] [--to M]`: a recorded run, replayed into a live app.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a session's recorded actions into a connected app, with its effects muted.",
        discussion: """
            The app is reset to the recorded state before the first replayed event, then runs the recorded \
            actions through its reducers with effects muted (their results are already in the recording). \
            SESSION may be saved or live; --into names the live session whose app receives it (default: SESSION).
            """
    )

    @Argument(help: "The session whose actions are replayed.")
    var session: String

    @Option(name: .long, help: ArgumentHelp("The live session whose app receives the replay.", valueName: "session"))
    var into: String?

    @Option(name: .long, help: "The first event to replay (default 1).")
    var from: UInt64?

    @Option(name: .long, help: "The last event to replay (default: the last).")
    var to: UInt64?

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let client = try ControlClient(host: connection.host, port: connection.port,
                                       token: connection.effectiveToken)
        let result = try client.request(.replay(session: session, target: into, fromSeq: from, toSeq: to),
                                        timeout: 120)
        var count = ""
        if case .object(let object) = result, case .int(let states)? = object["states"] { count = "\(states) " }
        print("replayed \(count)actions of \(session) into \(into ?? session)")
    }
}
