import ArgumentParser
import RewindWire

/// `rewind dispatch SESSION 'ACTION-JSON'`: the live app of SESSION dispatches an action.
struct DispatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dispatch",
        abstract: "Make a live app dispatch an action, given in the action's Codable JSON form.",
        discussion: #"Example: rewind dispatch 20261122-101500-counter-4f9a2c '{"add":{"_0":5}}'"#
    )

    @Argument(help: "The live session: its id or a unique prefix (see 'rewind sessions').")
    var session: String

    @Argument(help: "The action as JSON, as the app's Codable action type encodes it.")
    var action: String

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: action)
        } catch {
            throw CommandError("the action is not valid JSON: \(error)")
        }
        let client = try ControlClient(host: connection.host, port: connection.port,
                                       token: connection.effectiveToken)
        let id = try SessionIDResolver.resolveLive(session, with: client, for: "dispatch").rawValue
        _ = try client.request(.dispatch(session: id, action: value))
        CommandStreams.current.printLine("\(id): dispatched")
    }
}
