import Foundation
import RewindTestSupport
import RewindWebSocket
import Testing

@Suite("WebSocketServer handshakes")
struct TransportServerHandshakeTests {
    @Test("starting on port 0 listens on the port the system picked")
    func pickedPort() throws {
        let recorder = ServerEventRecorder()
        let (server, port) = try startServer(recorder)
        defer { server.stop() }
        #expect(port > 0)
        #expect(server.listeningPort == port)
        let client = try RawWebSocketClient(port: port)
        let response = try client.handshake()
        #expect(response.status == 101)
        #expect(response.headers["sec-websocket-protocol"] == "rewind.v1")
        #expect(recorder.wait { $0.openedConnections.count == 1 })
        guard case .opened(_, let subprotocol, let origin, let peer) = recorder.events.first else {
            Issue.record("no open event"); return
        }
        #expect(subprotocol == "rewind.v1")
        #expect(origin == nil)
        #expect(peer.hasPrefix("127.0.0.1:"))
    }

    @Test("a handshake whose Origin is not allowed is refused with HTTP 403")
    func originRefused() throws {
        let recorder = ServerEventRecorder()
        let (server, port) = try startServer(recorder) { $0.allowedOrigins = ["http://localhost:3000"] }
        defer { server.stop() }
        let client = try RawWebSocketClient(port: port)
        let response = try client.handshake(origin: "http://evil.example")
        #expect(response.status == 403)
        #expect(client.peerClosedConnection())
        #expect(recorder.events.isEmpty)
    }

    @Test("an empty Origin header is an origin like any other, not an absent one: refused with HTTP 403",
          arguments: ["Origin:", "Origin: ", "origin:  "])
    func emptyOriginRefused(header: String) throws {
        let recorder = ServerEventRecorder()
        let (server, port) = try startServer(recorder) { $0.allowedOrigins = ["http://localhost:3000"] }
        defer { server.stop() }
        let client = try RawWebSocketClient(port: port)
        let response = try client.handshake(extraHeaders: [header])
        #expect(response.status == 403)
        #expect(client.peerClosedConnection())
        #expect(recorder.events.isEmpty)
    }

    @Test("a handshake whose Origin is listed is accepted and the origin reported")
    func originAllowed() throws {
        let recorder = ServerEventRecorder()
        let (server, port) = try startServer(recorder) { $0.allowedOrigins = ["http://localhost:3000"] }
        defer { server.stop() }
        let client = try RawWebSocketClient(port: port)
        #expect(try client.handshake(origin: "http://localhost:3000").status == 101)
        #expect(recorder.wait { $0.openedConnections.count == 1 })
        guard case .opened(_, _, let origin, _) = recorder.events.first else { Issue.record("no open"); return }
        #expect(origin == "http://localhost:3000")
    }
}

@Suite("WebSocketServer closing")
struct TransportServerCloseTests {
    @Test("a message over the limit closes the connection with 1009")
    func oversize() throws {
        let recorder = ServerEventRecorder()
        let (server, port) = try startServer(recorder) { $0.maxMessageBytes = 1_000 }
        defer { server.stop() }
        let client = try RawWebSocketClient(port: port)
        try client.handshake()
        try client.sendText(Array(repeating: UInt8(ascii: "a"), count: 1_001))
        #expect(try client.readCloseCode() == 1009)
        #expect(recorder.wait { $0.anyClosed })
        #expect(recorder.receivedCount == 0)
    }

    @Test("the limit counts a message across its fragments")
    func oversizeAcrossFragments() throws {
        let recorder = ServerEventRecorder()
        let (server, port) = try startServer(recorder) { $0.maxMessageBytes = 1_000 }
        defer { server.stop() }
        let client = try RawWebSocketClient(port: port)
        try client.handshake()
        try client.sendFrame(opcode: RawWebSocketClient.Opcode.text, payload: payload(400), fin: false)
        try client.sendFrame(opcode: RawWebSocketClient.Opcode.continuation, payload: payload(400), fin: false)
        try client.sendFrame(opcode: RawWebSocketClient.Opcode.continuation, payload: payload(400), fin: true)
        #expect(try client.readCloseCode() == 1009)
        #expect(recorder.wait { $0.anyClosed })
        #expect(recorder.receivedCount == 0)
    }

    @Test("a frame announcing more than the limit is refused before its payload arrives")
    func oversizeAnnounced() throws {
        let recorder = ServerEventRecorder()
        let (server, port) = try startServer(recorder) { $0.maxMessageBytes = 1_000 }
        defer { server.stop() }
        let client = try RawWebSocketClient(port: port)
        try client.handshake()
        // Claims 10 MB, sends 100 bytes: the server must not wait for (or buffer) the rest.
        try client.sendFrame(opcode: RawWebSocketClient.Opcode.text, payload: payload(100), declaredLength: 10_000_000)
        #expect(try client.readCloseCode() == 1009)
        #expect(recorder.wait { $0.anyClosed })
    }

    @Test("a message just at the limit is delivered")
    func atLimit() throws {
        let recorder = ServerEventRecorder()
        let (server, port) = try startServer(recorder) { $0.maxMessageBytes = 1_000 }
        defer { server.stop() }
        let client = try RawWebSocketClient(port: port)
        try client.handshake()
        try client.sendFrame(opcode: RawWebSocketClient.Opcode.text, payload: payload(600), fin: false)
        try client.sendFrame(opcode: RawWebSocketClient.Opcode.continuation, payload: payload(400, seed: 3))
        #expect(recorder.wait { $0.receivedCount == 1 })
        let id = try #require(recorder.openedConnections.first)
        #expect(recorder.messages(from: id) == [payload(600) + payload(400, seed: 3)])
    }

    @Test("a text frame with invalid UTF-8 closes the connection with 1007")
    func invalidUTF8() throws {
        let recorder = ServerEventRecorder()
        let (server, port) = try startServer(recorder)
        defer { server.stop() }
        let client = try RawWebSocketClient(port: port)
        try client.handshake()
        try client.sendText([0x7B, 0xC3, 0x28, 0x7D])
        #expect(try client.readCloseCode() == 1007)
        #expect(recorder.wait { $0.anyClosed })
        #expect(recorder.receivedCount == 0)
    }

    @Test("invalid UTF-8 split across fragments is caught too")
    func invalidUTF8AcrossFragments() throws {
        let recorder = ServerEventRecorder()
        let (server, port) = try startServer(recorder)
        defer { server.stop() }
        let client = try RawWebSocketClient(port: port)
        try client.handshake()
        try client.sendFrame(opcode: RawWebSocketClient.Opcode.text, payload: Array("caf".utf8) + [0xC3], fin: false)
        try client.sendFrame(opcode: RawWebSocketClient.Opcode.continuation, payload: [0x41])
        #expect(try client.readCloseCode() == 1007)
        #expect(recorder.receivedCount == 0)
    }

    @Test("close sends the code and reason given: 1002 and 1008", arguments: [UInt16(1002), 1008])
    func closeWithCode(code: UInt16) throws {
        let recorder = ServerEventRecorder()
        let (server, port) = try startServer(recorder)
        defer { server.stop() }
        let client = try RawWebSocketClient(port: port)
        try client.handshake()
        #expect(recorder.wait { $0.openedConnections.count == 1 })
        let id = try #require(recorder.openedConnections.first)
        #expect(server.send(Array("before closing".utf8), to: id))
        server.close(id, code: code, reason: "because \(code)")
        #expect(try client.readMessage() == Array("before closing".utf8))
        let frame = try client.readFrame()
        #expect(frame.opcode == RawWebSocketClient.Opcode.close)
        #expect(frame.payload == [UInt8(code >> 8), UInt8(code & 0xFF)] + Array("because \(code)".utf8))
        try client.sendClose(code: code)
        #expect(recorder.wait { $0.hasClosed(id) })
        #expect(recorder.closeCode(of: id) == code)
        #expect(!server.send([1], to: id))
    }

    @Test("a connection the delegate refuses is closed with 1008")
    func delegateRefuses() throws {
        let recorder = ServerEventRecorder()
        recorder.accepts = false
        let (server, port) = try startServer(recorder)
        defer { server.stop() }
        let client = try RawWebSocketClient(port: port)
        #expect(try client.handshake().status == 101)
        #expect(try client.readCloseCode() == 1008)
        #expect(recorder.wait { $0.anyClosed })
    }

    @Test("the peer's close code is reported")
    func peerCloseCode() throws {
        let recorder = ServerEventRecorder()
        let (server, port) = try startServer(recorder)
        defer { server.stop() }
        let client = try RawWebSocketClient(port: port)
        try client.handshake()
        try client.sendClose(code: 4000, reason: "done")
        #expect(try client.readCloseCode() == 4000)
        #expect(recorder.wait { $0.anyClosed })
        let id = try #require(recorder.openedConnections.first)
        #expect(recorder.closeCode(of: id) == 4000)
    }

    @Test("a peer vanishing in the middle of a frame is reported closed without a code")
    func midFrameDisconnect() throws {
        let recorder = ServerEventRecorder()
        let (server, port) = try startServer(recorder)
        defer { server.stop() }
        let client = try RawWebSocketClient(port: port)
        try client.handshake()
        let frame = RawWebSocketClient.frame(opcode: RawWebSocketClient.Opcode.text, payload: payload(5_000))
        try client.sendRaw(Array(frame.prefix(2_000)))
        #expect(recorder.wait { $0.openedConnections.count == 1 })
        client.drop()
        #expect(recorder.wait { $0.anyClosed })
        let id = try #require(recorder.openedConnections.first)
        #expect(recorder.closeCode(of: id) == nil)
        #expect(recorder.receivedCount == 0)
        #expect(server.connectionCount == 0)
    }

    @Test("stop closes every connection with 1001")
    func stopSaysGoingAway() throws {
        let recorder = ServerEventRecorder()
        let (server, port) = try startServer(recorder)
        let clients = try (0..<3).map { _ in try RawWebSocketClient(port: port) }
        for client in clients { try client.handshake() }
        #expect(recorder.wait { $0.openedConnections.count == 3 })
        let stopper = Thread { server.stop() }
        stopper.start()
        for client in clients { #expect(try client.readCloseCode() == 1001) }
        #expect(recorder.wait { $0.events.filter { if case .closed(_, 1001) = $0 { true } else { false } }.count == 3 })
    }
}

@Suite("WebSocketServer messages")
struct TransportServerMessageTests {
    @Test("a message sent in fragments is delivered whole, binary ones flagged")
    func fragments() throws {
        let recorder = ServerEventRecorder()
        let (server, port) = try startServer(recorder)
        defer { server.stop() }
        let client = try RawWebSocketClient(port: port)
        try client.handshake()
        try client.sendFrame(opcode: RawWebSocketClient.Opcode.text, payload: Array("hel".utf8), fin: false)
        try client.sendFrame(opcode: RawWebSocketClient.Opcode.ping, payload: [])
        try client.sendFrame(opcode: RawWebSocketClient.Opcode.continuation, payload: Array("lo".utf8))
        try client.sendFrame(opcode: RawWebSocketClient.Opcode.binary, payload: [0, 255, 1])
        #expect(recorder.wait { $0.receivedCount == 2 })
        let id = try #require(recorder.openedConnections.first)
        #expect(recorder.events.dropFirst() == [
            .received(id, Array("hello".utf8), isBinary: false), .received(id, [0, 255, 1], isBinary: true),
        ])
    }

    @Test("a connection whose reading is stopped delivers nothing until it is resumed, then everything in order")
    func receiveFlowControl() throws {
        let recorder = ServerEventRecorder()
        let (server, port) = try startServer(recorder)
        defer { server.stop() }
        let client = try RawWebSocketClient(port: port)
        try client.handshake()
        try client.sendFrame(opcode: RawWebSocketClient.Opcode.text, payload: Array("first".utf8))
        #expect(recorder.wait { $0.receivedCount == 1 })
        let id = try #require(recorder.openedConnections.first)

        server.setReceiving(false, for: id)
        usleep(TestTime.microseconds(100_000))  // applied on the service thread
        for number in 1...20 {
            try client.sendFrame(opcode: RawWebSocketClient.Opcode.text, payload: Array("held \(number)".utf8))
        }
        #expect(!recorder.wait(timeout: 0.5) { $0.receivedCount > 1 }, "delivered while reading was stopped")
        #expect(server.send(Array("sending still works".utf8), to: id))
        #expect(try client.readFrame().payload == Array("sending still works".utf8))

        server.setReceiving(true, for: id)
        #expect(recorder.wait { $0.receivedCount == 21 })
        #expect(recorder.messages(from: id) == [Array("first".utf8)] + (1...20).map { Array("held \($0)".utf8) })
        server.setReceiving(true, for: ConnectionID(rawValue: 9_999))  // unknown: no effect
    }

    @Test("a 4 MiB message goes out in fragments and arrives whole")
    func largeOutgoing() throws {
        let recorder = ServerEventRecorder()
        let (server, port) = try startServer(recorder)
        defer { server.stop() }
        let client = try RawWebSocketClient(port: port)
        try client.handshake()
        #expect(recorder.wait { $0.openedConnections.count == 1 })
        let id = try #require(recorder.openedConnections.first)
        let big = payload(4 << 20, seed: 5)
        #expect(server.send(big, to: id))
        var frames: [RawWebSocketClient.Frame] = []
        repeat { frames.append(try client.readFrame()) } while frames.last?.fin == false
        #expect(frames.count > 1)
        #expect(frames.first?.opcode == RawWebSocketClient.Opcode.text)
        #expect(frames.dropFirst().allSatisfy { $0.opcode == RawWebSocketClient.Opcode.continuation })
        #expect(frames.flatMap(\.payload) == big)
    }

    @Test("a message sent from didOpen is the first thing the client reads")
    func greeting() throws {
        let recorder = ServerEventRecorder(greeting: Array(#"{"type":"welcome"}"#.utf8))
        let (server, port) = try startServer(recorder)
        defer { server.stop() }
        let client = try RawWebSocketClient(port: port)
        try client.handshake()
        #expect(try client.readMessage() == Array(#"{"type":"welcome"}"#.utf8))
    }

    @Test("sends from several threads at once all arrive, each thread's in order")
    func concurrentSends() throws {
        let recorder = ServerEventRecorder()
        let (server, port) = try startServer(recorder)
        defer { server.stop() }
        let client = try RawWebSocketClient(port: port)
        try client.handshake()
        #expect(recorder.wait { $0.openedConnections.count == 1 })
        let id = try #require(recorder.openedConnections.first)
        let threads = 4
        let perThread = 2_500
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for number in 0..<perThread {
                while !server.send(Array("\(thread) \(number)".utf8), to: id) { usleep(100) }
            }
        }
        var next = [Int](repeating: 0, count: threads)
        for _ in 0..<(threads * perThread) {
            let parts = String(decoding: try client.readMessage(), as: UTF8.self).split(separator: " ")
            let thread = Int(parts[0])!
            #expect(Int(parts[1]) == next[thread])
            next[thread] += 1
        }
        #expect(next == [Int](repeating: perThread, count: threads))
    }

    @Test("send refuses unknown connections and a backlog over the cap")
    func backlog() throws {
        let recorder = ServerEventRecorder()
        let (server, port) = try startServer(recorder) { $0.maxQueuedBytesPerConnection = 1 << 20 }
        defer { server.stop() }
        #expect(!server.send([1], to: ConnectionID(rawValue: 999)))
        let client = try RawWebSocketClient(port: port)  // never reads: the socket buffers fill up
        try client.handshake()
        #expect(recorder.wait { $0.openedConnections.count == 1 })
        let id = try #require(recorder.openedConnections.first)
        let chunk = payload(256 << 10)
        var accepted = 0
        while server.send(chunk, to: id) && accepted < 1_000 { accepted += 1 }
        #expect(accepted < 1_000, "the backlog never filled")
        // Each message counts its storage plus `perMessageOverhead`: three fit in the 1 MiB before the socket's
        // buffers take any.
        #expect(accepted >= 3)
    }

    @Test("a plain HTTP request gets an error status, not a connection")
    func plainHTTP() throws {
        let recorder = ServerEventRecorder()
        let (server, port) = try startServer(recorder)
        defer { server.stop() }
        let client = try RawWebSocketClient(port: port)
        try client.sendRaw(Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        let response = try client.readResponseHead()
        #expect(response.status >= 400)
        #expect(recorder.events.isEmpty)
    }

    @Test("a handshake naming only unknown subprotocols is refused with HTTP 400")
    func unknownSubprotocol() throws {
        let recorder = ServerEventRecorder()
        let (server, port) = try startServer(recorder)
        defer { server.stop() }
        let client = try RawWebSocketClient(port: port)
        #expect(try client.handshake(subprotocols: ["chat", "superchat"]).status == 400)
        #expect(recorder.events.isEmpty)
    }

    @Test("a handshake naming no subprotocol is refused with HTTP 400 (issue 31: it was answered 101)")
    func noSubprotocol() throws {
        let recorder = ServerEventRecorder()
        let (server, port) = try startServer(recorder)
        defer { server.stop() }
        let client = try RawWebSocketClient(port: port)
        #expect(try client.handshake(subprotocols: nil).status == 400)
        #expect(recorder.events.isEmpty)
    }

    @Test("where none is required, no subprotocol gets the first; a list gets the first one the server speaks")
    func subprotocolChoice() throws {
        let recorder = ServerEventRecorder()
        let (server, port) = try startServer(recorder) { $0.subprotocolRequired = false }
        defer { server.stop() }
        let none = try RawWebSocketClient(port: port)
        #expect(try none.handshake(subprotocols: nil).status == 101)
        #expect(recorder.wait { $0.openedConnections.count == 1 })
        let listed = try RawWebSocketClient(port: port)
        let response = try listed.handshake(subprotocols: ["chat", "rewind.control.v1"])
        #expect(response.headers["sec-websocket-protocol"] == "rewind.control.v1")
        #expect(recorder.wait { $0.openedConnections.count == 2 })
        let chosen = recorder.events.compactMap { if case .opened(_, let name, _, _) = $0 { name } else { nil } }
        #expect(chosen == ["rewind.v1", "rewind.control.v1"])
    }
}

@Suite("WebSocketServer lifecycle")
struct TransportServerLifecycleTests {
    @Test("1,000 connections opened and dropped leak nothing and the server still serves")
    func churn() throws {
        let recorder = ServerEventRecorder(echo: true)
        let (server, port) = try startServer(recorder)
        defer { server.stop() }
        let descriptors = ProcessResources.openFileDescriptors
        for index in 0..<1_000 {
            let client = try RawWebSocketClient(port: port)
            switch index % 4 {
            case 0:
                client.drop()  // before the handshake
            case 1:
                try client.handshake()
                client.drop()
            case 2:
                try client.handshake()
                try client.sendRaw(Array(RawWebSocketClient.frame(opcode: 1, payload: payload(300)).prefix(100)))
                client.drop()  // mid-frame
            default:
                try client.handshake()
                try client.sendClose(code: 1000)
                _ = try client.readCloseCode()
            }
        }
        #expect(recorder.wait { $0.events.filter { if case .closed = $0 { true } else { false } }.count == 750 })
        #expect(ProcessResources.settle { server.connectionCount == 0 })
        // Other tests run in this process at the same time: allow their noise, not one leak per connection.
        #expect(ProcessResources.settle(timeout: 10) { ProcessResources.openFileDescriptors < descriptors + 100 })
        let client = try RawWebSocketClient(port: port)
        try client.handshake()
        try client.sendText("still here")
        #expect(try client.readMessage() == Array("still here".utf8))
    }

    @Test("start fails clearly when the port is taken")
    func portInUse() throws {
        let (first, port) = try startServer(ServerEventRecorder())
        defer { first.stop() }
        let second = WebSocketServer(configuration: WebSocketServerConfiguration(port: port),
                                     delegate: ServerEventRecorder())
        #expect {
            try second.start()
        } throws: { error in
            guard case WebSocketServerError.cannotListen(_, let failedPort, let reason) = error else { return false }
            return failedPort == port && reason.lowercased().contains("in use")
        }
        second.stop()
        second.stop()
    }

    @Test("start refuses a bad configuration and a second start")
    func badStarts() throws {
        let empty = WebSocketServer(configuration: WebSocketServerConfiguration(port: 0, subprotocols: []),
                                    delegate: ServerEventRecorder())
        #expect(throws: WebSocketServerError.invalidConfiguration("no subprotocol")) { try empty.start() }
        let badName = WebSocketServer(configuration: WebSocketServerConfiguration(port: 0, subprotocols: ["a b"]),
                                      delegate: ServerEventRecorder())
        #expect(throws: WebSocketServerError.self) { try badName.start() }
        let (server, _) = try startServer(ServerEventRecorder())
        defer { server.stop() }
        #expect(throws: WebSocketServerError.alreadyStarted) { try server.start() }
    }

    @Test("stop is idempotent, safe before start and from several threads at once")
    func stopAnywhere() throws {
        WebSocketServer(configuration: WebSocketServerConfiguration(port: 0), delegate: ServerEventRecorder()).stop()
        let (server, port) = try startServer(ServerEventRecorder())
        let client = try RawWebSocketClient(port: port)
        try client.handshake()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in server.stop() }
        server.stop()
        #expect(server.listeningPort == 0)
        #expect(server.connectionCount == 0)
        #expect(throws: WebSocketServerError.alreadyStarted) { try server.start() }
    }

    @Test("30 servers started and stopped leave no thread or socket behind")
    func startStopChurn() throws {
        let threads = ProcessResources.threads
        let descriptors = ProcessResources.openFileDescriptors
        for _ in 0..<30 {
            let (server, port) = try startServer(ServerEventRecorder())
            let client = try RawWebSocketClient(port: port)
            try client.handshake()
            server.stop()
            #expect(try client.readCloseCode() == 1001)
        }
        // Other tests run in this process at the same time: allow their noise, not one leak per server.
        #expect(ProcessResources.settle(timeout: 10) { ProcessResources.threads < threads + 10 })
        #expect(ProcessResources.settle(timeout: 10) { ProcessResources.openFileDescriptors < descriptors + 25 })
    }

    @Test("stop called from a delegate callback does not deadlock")
    func stopFromCallback() throws {
        let recorder = StoppingDelegate()
        let server = WebSocketServer(configuration: WebSocketServerConfiguration(port: 0), delegate: recorder)
        let port = try server.start()
        let client = try RawWebSocketClient(port: port)
        try client.handshake()
        try client.sendText("stop please")
        #expect(try client.readCloseCode() == 1001)
        #expect(ProcessResources.settle { server.listeningPort == 0 })
        server.stop()
    }
}

/// Stops its server from `didReceive`.
private final class StoppingDelegate: WebSocketServerDelegate {
    func server(_ server: WebSocketServer, didOpen id: ConnectionID, subprotocol: String, origin: String?,
                peer: String) -> Bool { true }
    func server(_ server: WebSocketServer, didReceive message: [UInt8], isBinary: Bool, from id: ConnectionID) {
        server.stop()
    }
    func server(_ server: WebSocketServer, didClose id: ConnectionID, code: UInt16?) {}
}

