import Foundation
import RewindDaemon
import RewindSessionFile
import RewindWebSocket
import RewindWire

/// The CLI's connection to a running daemon (subprotocol `rewind.control.v1`): sends requests, waits for their
/// responses, and hands `tail` events to a callback.
///
/// How long a request waits for its response (``answerBound(for:)``): the daemon answers every command it sends to
/// an app — `jump`, `dispatch`, `replay`, `replayActions`, `skip`, `branch` — within its command timeout
/// (`--command-timeout`, 60 s by default), with `command_failed` when the app does not answer; so the client waits
/// for that timeout plus a margin (``answerMargin``, 15 s: the daemon's own work — reading the session file,
/// flushing the recording — and a loaded machine), and a `replay`, which first reads the whole range of events,
/// plus a larger one (``readingMargin``). The daemon tells its timeout in its answer to `sessions`, in each live
/// session's `commandTimeout`, and every command naming a live session asks for that list first; before that, or
/// from a daemon that does not say, the client assumes the default timeout. A daemon without a command timeout (0)
/// is waited for as long as the connection lasts. Requests that reach no app (`sessions`, `tail`,
/// `recordedActions`) keep fixed bounds. Only when the bound passes does the client say the daemon did not answer —
/// naming the request and the time it allowed.
///
/// Threading: `request` blocks the calling thread; events and responses arrive on the client's service thread.
final class ControlClient: @unchecked Sendable {  // mutable state guarded by `condition`
    /// The margin over the daemon's command timeout allowed for a command sent to an app.
    static let answerMargin: Double = 15
    /// The margin allowed for a `replay`, whose events the daemon reads before it sends anything.
    static let readingMargin: Double = 60
    /// How long a request that reaches no app waits (`sessions`, `tail`, `untail`), unless the caller says.
    static let daemonOnlyTimeout: Double = 15
    /// How long `recordedActions` waits: the daemon reads the range of events, and no app is involved.
    static let readingTimeout: Double = 60

    private let client = WebSocketClient()
    private let condition = NSCondition()
    private var connected = false
    private var disconnectReason: String?
    private var replies: [String: ControlReply] = [:]
    private var nextID = 1
    /// The daemon's command timeout in seconds (0: none), as its latest `sessions` answer said (in its live sessions'
    /// `commandTimeout`); the default until then.
    private var commandTimeout = DaemonConfiguration().commandTimeout
    private let token: String?
    /// `host:port` of the daemon, for messages.
    let address: String
    /// The daemon's port, for the commands a message suggests (`--port N` when it is not the default).
    let port: Int
    /// Called with every `event` message (from `tail`), on the client's service thread.
    var onEvent: @Sendable (ControlEvent) -> Void = { _ in }

    /// Connects to the daemon at `host:port`, waiting up to `timeout` seconds.
    init(host: String, port: Int, token: String?, timeout: Double = 3) throws {
        self.token = token
        self.address = "\(host):\(port)"
        self.port = port
        guard let url = WebSocketURL(string: "ws://\(host):\(port)") else {
            throw CommandError("'\(host):\(port)' is not a valid daemon address")
        }
        client.connect(to: url, subprotocol: WireProtocol.controlSubprotocol, delegate: self)
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !connected && disconnectReason == nil {
            if !condition.wait(until: deadline) { break }
        }
        guard connected else {
            client.disconnect()
            throw CommandError("no rewind daemon is running at \(address) (start one with 'rewind' or "
                + "'rewind serve --headless')")
        }
    }

    deinit { client.disconnect() }

    /// Sends `command` and returns the daemon's result, or throws its error as a clear message. Waits up to
    /// `timeout` seconds when given, else ``answerBound(for:)``. Blocks the calling thread.
    func request(_ command: ControlCommand, timeout: Double? = nil) throws -> JSONValue {
        condition.lock()
        let id = "r\(nextID)"
        nextID += 1
        let bound = timeout ?? answerBound(for: command)
        let allowedCommandTimeout = commandTimeout
        condition.unlock()
        guard client.send(WireCodec.encode(ControlRequest(id: id, command: command, token: token))) else {
            throw CommandError("the connection to the daemon at \(address) was lost")
        }
        let deadline = bound.isFinite ? Date(timeIntervalSinceNow: bound) : Date.distantFuture
        condition.lock()
        defer { condition.unlock() }
        while replies[id] == nil && disconnectReason == nil {
            if !condition.wait(until: deadline) {
                let reaches = Self.reachesApp(command)
                let allowance = reaches && timeout == nil
                    ? " (its command timeout, \(Self.seconds(allowedCommandTimeout)), plus "
                        + "\(Self.seconds(bound - allowedCommandTimeout)) for its own work)" : ""
                throw CommandError("the daemon at \(address) did not answer the '\(command.name)' request within "
                    + Self.seconds(bound) + allowance + ": it is stuck or overloaded")
            }
        }
        guard let reply = replies.removeValue(forKey: id) else {
            throw CommandError("the daemon closed the connection: \(disconnectReason ?? "no reason given")")
        }
        if let error = reply.error { throw CommandError("\(error.message) (\(error.code.rawValue))") }
        let result = reply.result ?? .null
        if case .sessions = command,
           let told = result["sessions"]?.arrayValue?.compactMap({ $0["commandTimeout"]?.doubleValue }).max(),
           told >= 0, told.isFinite {
            commandTimeout = told
        }
        return result
    }

    /// How long a request for `command` waits for its response (see the type's notes): for a command sent to an
    /// app, the daemon's command timeout plus ``answerMargin`` (``readingMargin`` for `replay`), or no limit when
    /// the daemon has none. Call with `condition` held.
    private func answerBound(for command: ControlCommand) -> Double {
        switch command {
        case .jump, .dispatch, .skip, .branch, .replayActions:
            return commandTimeout > 0 ? commandTimeout + Self.answerMargin : .infinity
        case .replay:
            return commandTimeout > 0 ? commandTimeout + Self.readingMargin : .infinity
        case .recordedActions:
            return Self.readingTimeout
        case .sessions, .tail, .untail, .other:
            return Self.daemonOnlyTimeout
        }
    }

    /// True for the commands the daemon sends on to an app. Pure; any thread.
    private static func reachesApp(_ command: ControlCommand) -> Bool {
        switch command {
        case .jump, .dispatch, .skip, .branch, .replayActions, .replay: return true
        case .sessions, .tail, .untail, .recordedActions, .other: return false
        }
    }

    /// "75 s", "16.5 s". Pure; any thread.
    private static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? "\(Int(value)) s" : "\(value) s"
    }

    /// Blocks until the daemon closes the connection; returns its reason.
    func waitUntilClosed() -> String {
        condition.lock()
        defer { condition.unlock() }
        while disconnectReason == nil { condition.wait() }
        return disconnectReason ?? ""
    }
}

extension ControlClient: WebSocketClientDelegate {
    func webSocketDidConnect() {
        condition.lock()
        connected = true
        condition.broadcast()
        condition.unlock()
    }

    func webSocketDidReceive(_ message: [UInt8]) {
        guard let response = try? WireCodec.decodeControlResponse(message) else { return }
        switch response {
        case .response(let reply):
            condition.lock()
            if reply.id.isEmpty, let error = reply.error {
                disconnectReason = error.message
            } else {
                replies[reply.id] = reply
            }
            condition.broadcast()
            condition.unlock()
        case .event(let event):
            onEvent(event)
        }
    }

    func webSocketDidDisconnect(reason: String) {
        condition.lock()
        disconnectReason = reason.isEmpty ? "closed" : reason
        condition.broadcast()
        condition.unlock()
    }
}
