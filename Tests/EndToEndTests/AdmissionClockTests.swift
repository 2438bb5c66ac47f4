import Foundation
import RewindTestSupport
import RewindWebSocket
import Testing

/// The admission timeout closes peers that say nothing, never peers whose first message the server's delegate is
/// still working on: 5,000 apps connecting at once made the daemon answer some `hello`s after more than the hello
/// timeout, and those apps were closed for the daemon's own slowness (issue 19, item 10).
@Suite("Admission clock")
struct AdmissionClockTests {
    /// A delegate that answers every message `delay` seconds later, from another thread: admitting the connection
    /// first, or only sending an error.
    final class SlowDelegate: WebSocketServerDelegate, @unchecked Sendable {  // `closes` guarded by `lock`
        let delay: Double
        let admits: Bool
        weak var server: WebSocketServer?
        private let lock = NSLock()
        private var closes: [ConnectionID: UInt16?] = [:]

        init(delay: Double, admits: Bool) {
            self.delay = delay
            self.admits = admits
        }

        func server(_ server: WebSocketServer, didOpen id: ConnectionID, subprotocol: String, origin: String?,
                    peer: String) -> Bool { true }

        func server(_ server: WebSocketServer, didReceive message: [UInt8], isBinary: Bool, from id: ConnectionID) {
            let admits = self.admits
            DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [weak server] in
                if admits { server?.admit(id) }
                _ = server?.send(Array((admits ? "welcome" : "error: try again").utf8), to: id)
            }
        }

        func server(_ server: WebSocketServer, didClose id: ConnectionID, code: UInt16?) {
            lock.withLock { closes[id] = code }
        }
    }

    static func start(_ delegate: SlowDelegate, timeout: Double) throws -> (WebSocketServer, Int) {
        var configuration = WebSocketServerConfiguration(port: 0, subprotocols: ["rewind.v1"])
        configuration.admissionTimeout = timeout
        let server = WebSocketServer(configuration: configuration, delegate: delegate)
        delegate.server = server
        return (server, try server.start())
    }

    @Test("a peer whose first message is answered after the timeout is not closed, and gets the answer")
    func busyDelegateKeepsThePeer() throws {
        let delegate = SlowDelegate(delay: TestTime.seconds(1.2), admits: true)
        let (server, port) = try Self.start(delegate, timeout: 0.3)
        defer { server.stop() }
        let peer = try RawWebSocketClient(port: port, timeout: TestTime.seconds(5))
        _ = try peer.handshake(subprotocols: ["rewind.v1"])
        try peer.sendText("hello")
        #expect(String(decoding: try peer.readMessage(), as: UTF8.self) == "welcome")
    }

    @Test("after an answer that does not admit, the peer's time runs again; a silent peer is still closed")
    func clockRunsAgainAfterAnError() throws {
        let delegate = SlowDelegate(delay: TestTime.seconds(0.8), admits: false)
        let (server, port) = try Self.start(delegate, timeout: 0.3)
        defer { server.stop() }
        let peer = try RawWebSocketClient(port: port, timeout: TestTime.seconds(5))
        _ = try peer.handshake(subprotocols: ["rewind.v1"])
        try peer.sendText("a hello with a mistake")
        #expect(String(decoding: try peer.readMessage(), as: UTF8.self) == "error: try again")
        let answered = Date()
        let close = try peer.readFrame()
        #expect(close.opcode == RawWebSocketClient.Opcode.close)
        #expect(close.payload.count >= 2 && UInt16(close.payload[0]) << 8 | UInt16(close.payload[1]) == 1008)
        #expect(Date().timeIntervalSince(answered) < TestTime.seconds(3))

        let silent = try RawWebSocketClient(port: port, timeout: TestTime.seconds(5))
        _ = try silent.handshake(subprotocols: ["rewind.v1"])
        #expect(try silent.readFrame().opcode == RawWebSocketClient.Opcode.close)
    }
}
