import Foundation
import RewindWebSocket
import RewindWire

/// The CLI's connection to a running daemon (subprotocol `rewind.control.v1`): sends requests, waits for their
/// responses, and hands `tail` events to a callback.
///
/// Threading: `request` blocks the calling thread; events and responses arrive on the client's service thread.
final class ControlClient: @unchecked Sendable {  // mutable state guarded by `condition`
    private let client = WebSocketClient()
    private let condition = NSCondition()
    private var connected = false
    private var disconnectReason: String?
    private var replies: [String: ControlReply] = [:]
    private var nextID = 1
    private let token: String?
    /// `host:port` of the daemon, for messages.
    let address: String
    /// Called with every `event` message (from `tail`), on the client's service thread.
    var onEvent: @Sendable (ControlEvent) -> Void = { _ in }

    /// Connects to the daemon at `host:port`, waiting up to `timeout` seconds.
    init(host: String, port: Int, token: String?, timeout: Double = 3) throws {
        self.token = token
        self.address = "\(host):\(port)"
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

    /// Sends `command` and returns the daemon's result, or throws its error as a clear message.
    func request(_ command: ControlCommand, timeout: Double = 15) throws -> JSONValue {
        condition.lock()
        let id = "r\(nextID)"
        nextID += 1
        condition.unlock()
        guard client.send(WireCodec.encode(ControlRequest(id: id, command: command, token: token))) else {
            throw CommandError("the connection to the daemon at \(address) was lost")
        }
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while replies[id] == nil && disconnectReason == nil {
            if !condition.wait(until: deadline) {
                throw CommandError("the daemon did not answer within \(Int(timeout)) s")
            }
        }
        guard let reply = replies.removeValue(forKey: id) else {
            throw CommandError("the daemon closed the connection: \(disconnectReason ?? "no reason given")")
        }
        if let error = reply.error { throw CommandError("\(error.message) (\(error.code.rawValue))") }
        return reply.result ?? .null
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
