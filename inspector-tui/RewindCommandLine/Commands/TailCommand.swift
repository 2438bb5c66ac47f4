import ArgumentParser
import Foundation
import RewindWire

/// `rewind tail [SESSION] [--json]`: live events from a running daemon, one line each.
struct TailCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tail",
        abstract: "Print live events from a running daemon, one line each (all sessions, or one).",
        discussion: "With --json each line is a JSON object (pipe to jq). Ends on Ctrl-C, when the daemon stops, or "
            + "quietly when its reader goes away (| head)."
    )

    @Argument(help: "Only this live session's events: its id or a unique prefix.")
    var session: String?

    @Flag(name: .long, help: "One JSON object per line: {\"session\": …, \"event\": …}.")
    var json = false

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let client = try ControlClient(host: connection.host, port: connection.port,
                                       token: connection.effectiveToken)
        let json = self.json
        let streams = CommandStreams.current  // events arrive on the connection's thread
        client.onEvent = { event in
            let line: String
            if json {
                line = JSONValue.object(JSONObject([("session", .string(event.session)), ("event", event.event)]))
                    .serialized()
            } else {
                line = Self.describe(event)
            }
            // The reader went away (`| head`): end quietly, as a closed pipe ends any Unix filter.
            guard streams.writeLineIfRead(line) else { Foundation.exit(0) }
        }
        let only = try session.map { try SessionIDResolver.resolveLive($0, with: client, for: "be tailed").rawValue }
        _ = try client.request(.tail(session: only))
        let reason = client.waitUntilClosed()
        CommandStreams.current.writeError("rewind: the daemon closed the connection (\(reason))\n")
    }

    /// `SESSION  #12  action  todo/add  (2 ops)`.
    static func describe(_ event: ControlEvent) -> String {
        guard case .object(let object) = event.event else {
            return TerminalText.escaped("\(event.session)  \(event.event.serialized())")
        }
        func text(_ key: String) -> String? {
            if case .string(let value)? = object[key] { return value }
            return nil
        }
        var parts = [event.session]
        if case .int(let index)? = object["index"] { parts.append("#\(index)") }
        let kind = text("kind") ?? text("type") ?? "event"
        // A label that starts with the kind ("jump to #12") says it already: not "jump  jump to #12".
        if let label = text("label") { parts.append(label.hasPrefix(kind) ? label : "\(kind)  \(label)") } else { parts.append(kind) }
        if case .array(let operations)? = object["patch"] {
            parts.append(operations.count == 1 ? "(1 op)" : "(\(operations.count) ops)")
        }
        if let detail = text("detail") { parts.append("— \(detail)") }
        return TerminalText.escaped(parts.joined(separator: "  "))  // the app's labels and details: no escapes
    }
}
