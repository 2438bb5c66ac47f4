import ArgumentParser

/// `rewind jump SESSION SEQ`: the live app of SESSION takes the state recorded at event SEQ.
struct JumpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jump",
        abstract: "Put a live app into the state recorded at one of its session's events.",
        discussion: "The state is rebuilt from the nearest keyframe and the patches after it; event 0 is the "
            + "initial state. Fails with a clear message when the session's app is not connected."
    )

    @Argument(help: "The live session: its id or a unique prefix (see 'rewind sessions').")
    var session: String

    @Argument(help: "The event number (0 = the initial state).")
    var seq: UInt64

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let client = try ControlClient(host: connection.host, port: connection.port,
                                       token: connection.effectiveToken)
        let id = try SessionIDResolver.resolveLive(session, with: client, for: "jump").rawValue
        _ = try client.request(.jump(session: id, seq: seq))
        CommandStreams.current.printLine("\(id): the app now has the state of event \(seq)")
    }
}
