import Foundation
import RewindWire
import Testing

/// A hand-driven peer of a daemon over a `RawWebSocketClient`: an app (`rewind.v1`) or a control client
/// (`rewind.control.v1`) that sends exactly the frames a test writes, broken ones included, and reads what the
/// daemon answers as JSON. The `expect…` methods record test issues at the caller's line.
///
/// Threading: not thread-safe; one test uses one peer from one thread.
package final class DaemonPeer {
    /// The socket, for frames the helpers below do not write.
    package let raw: RawWebSocketClient
    /// The HTTP status of the handshake (101 when the upgrade was accepted).
    package let handshakeStatus: Int

    /// Connects to `127.0.0.1:port` and sends the opening handshake offering `subprotocol`. With `answersPings`, the
    /// peer answers the daemon's pings at once from then on, read or not, as a live app's WebSocket library does (see
    /// ``RawWebSocketClient/answerPingsInBackground()``): a daemon that probes it finds it alive.
    package init(port: Int, subprotocol: String = WireProtocol.appSubprotocol, origin: String? = nil,
         timeout: Double = TestTime.seconds(5), answersPings: Bool = false) throws {
        raw = try RawWebSocketClient(port: port, timeout: timeout)
        handshakeStatus = try raw.handshake(subprotocols: [subprotocol], origin: origin).status
        if answersPings && handshakeStatus == 101 { raw.answerPingsInBackground() }
    }

    /// Sends one text frame.
    package func send(_ text: String) throws {
        try raw.sendText(text)
    }

    /// Reads the next message and parses it, passing over the daemon's `ack`s (an app may ignore them).
    package func next() throws -> JSONValue {
        while true {
            let message = try JSONValue(parsing: try raw.readMessage())
            if message["type"]?.stringValue != "ack" { return message }
        }
    }

    /// Sends `hello` and reads the answer; returns the session id of the `welcome`, nil (recording an issue)
    /// for anything else.
    @discardableResult
    package func hello(_ frame: String = AppFrames.hello(), sourceLocation: SourceLocation = #_sourceLocation) throws
        -> String? {
        try send(frame)
        let answer = try next()
        #expect(answer["type"] == "welcome", "\(answer)", sourceLocation: sourceLocation)
        return answer["session"]?.stringValue
    }

    /// Reads the next message and checks that it is an `error` with `code` (and `field`, when given); returns
    /// its `message`.
    @discardableResult
    package func expectError(_ code: WireErrorCode, field: String? = nil,
                            sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let message = try next()
        #expect(message["type"] == "error", "\(message)", sourceLocation: sourceLocation)
        #expect(message["code"]?.stringValue == code.rawValue, "\(message)", sourceLocation: sourceLocation)
        if let field {
            #expect(message["field"]?.stringValue == field, "\(message)", sourceLocation: sourceLocation)
        }
        return message["message"]?.stringValue ?? ""
    }

    /// Reads the next message and checks that it is a `resync` with `reason`.
    package func expectResync(reason: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let message = try next()
        #expect(message == ["type": "resync", "reason": .string(reason)], sourceLocation: sourceLocation)
    }

    /// Reads frames up to the daemon's close frame (answering it) and checks its code; a text or binary frame
    /// before it is an issue (every message the test expected was read before).
    package func expectClose(_ code: UInt16, sourceLocation: SourceLocation = #_sourceLocation) {
        while true {
            let frame: RawWebSocketClient.Frame
            do {
                frame = try raw.readFrame()
            } catch {
                Issue.record("no close frame (\(error)); expected \(code)", sourceLocation: sourceLocation)
                return
            }
            switch frame.opcode {
            case RawWebSocketClient.Opcode.close:
                try? raw.sendFrame(opcode: RawWebSocketClient.Opcode.close, payload: Array(frame.payload.prefix(2)))
                let received = frame.payload.count >= 2 ? UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1]) : nil
                #expect(received == code, "close reason: \(String(decoding: frame.payload.dropFirst(2), as: UTF8.self))",
                        sourceLocation: sourceLocation)
                return
            case RawWebSocketClient.Opcode.ping, RawWebSocketClient.Opcode.pong:
                continue
            default:
                Issue.record("a message before the close: \(String(decoding: frame.payload, as: UTF8.self))",
                             sourceLocation: sourceLocation)
            }
        }
    }

    /// Checks that the connection is still open and served, and that nothing unread is waiting: sends a ping
    /// and expects its pong as the next frame.
    package func expectOpen(sourceLocation: SourceLocation = #_sourceLocation) {
        let token = Array("still there? \(UInt32.random(in: 0...UInt32.max))".utf8)
        do {
            try raw.sendFrame(opcode: RawWebSocketClient.Opcode.ping, payload: token)
            while true {
                let frame = try raw.readFrame()
                if frame.opcode == RawWebSocketClient.Opcode.pong && frame.payload == token { return }
                if frame.opcode == RawWebSocketClient.Opcode.pong { continue }
                if frame.opcode == RawWebSocketClient.Opcode.ping {
                    // The daemon's keepalive: a live client answers.
                    try raw.sendFrame(opcode: RawWebSocketClient.Opcode.pong, payload: frame.payload)
                    continue
                }
                let text = String(decoding: frame.payload, as: UTF8.self)
                Issue.record("expected the pong, got opcode \(frame.opcode): \(text)", sourceLocation: sourceLocation)
                return
            }
        } catch {
            Issue.record("the connection is not open: \(error)", sourceLocation: sourceLocation)
        }
    }

    // MARK: Control connections

    /// Sends a control request.
    package func request(_ id: String, _ command: String, args: String = "{}", token: String? = nil) throws {
        let tokenMember = token.map { #","token":"\#($0)""# } ?? ""
        try send(#"{"type":"request","id":"\#(id)","command":"\#(command)","args":\#(args)\#(tokenMember)}"#)
    }

    /// Reads messages up to the next `response` (skipping tail `event`s) and checks its `id`; returns it.
    package func response(_ id: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONValue {
        while true {
            let message = try next()
            if message["type"] == "event" { continue }
            #expect(message["type"] == "response", "\(message)", sourceLocation: sourceLocation)
            #expect(message["id"]?.stringValue == id, "\(message)", sourceLocation: sourceLocation)
            return message
        }
    }

    /// Reads the next response and checks that it failed with `code` (and `field`, when given).
    @discardableResult
    package func expectFailure(_ id: String, _ code: WireErrorCode, field: String? = nil,
                       sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONValue {
        let message = try response(id, sourceLocation: sourceLocation)
        #expect(message["ok"] == false, "\(message)", sourceLocation: sourceLocation)
        #expect(message["error"]?["code"]?.stringValue == code.rawValue, "\(message)", sourceLocation: sourceLocation)
        if let field {
            #expect(message["error"]?["field"]?.stringValue == field, "\(message)", sourceLocation: sourceLocation)
        }
        return message
    }

    /// Reads the next response and checks that it succeeded; returns its `result`.
    @discardableResult
    package func expectSuccess(_ id: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONValue {
        let message = try response(id, sourceLocation: sourceLocation)
        #expect(message["ok"] == true, "\(message)", sourceLocation: sourceLocation)
        return message["result"] ?? .null
    }
}

/// App messages as the bytes a test sends: a counter app whose state is `{"count": n}` and whose every action
/// `counter/set` replaces `/count` with its `seq`.
///
/// Threading: stateless; any thread.
package enum AppFrames {
    /// A `hello` with a fresh instance unless one is given.
    package static func hello(name: String = "bad-input", instance: String = UUID().uuidString, count: Int = 0,
                      token: String? = nil, protocolVersion: Int = 1) -> String {
        let tokenMember = token.map { #","token":"\#($0)""# } ?? ""
        return #"{"type":"hello","protocol":\#(protocolVersion),"app":{"name":"\#(name)","instance":"\#(instance)"},"#
            + #""state":{"count":\#(count)},"stateType":"CounterState","capabilities":["jump","dispatch","replay","batch"]\#(tokenMember)}"#
    }

    /// One event's members (without `type`): `counter/set` to `count` (default: `seq`).
    package static func event(seq: Int, count: Int? = nil, patch: String? = nil) -> String {
        let patch = patch ?? #"[{"op":"replace","path":"/count","value":\#(count ?? seq)}]"#
        return #""seq":\#(seq),"time":1700000000.5,"action":{"type":"counter/set","payload":{"set":{"_0":\#(count ?? seq)}}},"patch":\#(patch)"#
    }

    /// An `action` message.
    package static func action(seq: Int, count: Int? = nil, patch: String? = nil) -> String {
        #"{"type":"action",\#(event(seq: seq, count: count, patch: patch))}"#
    }

    /// A `batch` of consecutive events.
    package static func batch(_ seqs: ClosedRange<Int>) -> String {
        #"{"type":"batch","events":["# + seqs.map { "{\(event(seq: $0))}" }.joined(separator: ",") + "]}"
    }

    /// A `snapshot` after action `seq` with `{"count": count}`.
    package static func snapshot(seq: Int, count: Int) -> String {
        #"{"type":"snapshot","seq":\#(seq),"state":{"count":\#(count)},"reason":"resync"}"#
    }
}
