import Foundation
import RewindTestSupport
import RewindWebSocket
import Testing

/// A numbered text message, `"message <n>"`.
func numbered(_ number: Int) -> [UInt8] { Array("message \(number)".utf8) }

/// Deterministic printable bytes (valid UTF-8) of a given length: a 26-letter cycle, rotated by `seed`.
func payload(_ count: Int, seed: Int = 0) -> [UInt8] {
    let cycle = (0..<26).map { UInt8(ascii: "a") + UInt8(($0 * 31 + seed) % 26) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count + cycle.count)
    while bytes.count < count { bytes += cycle }
    bytes.removeLast(bytes.count - count)
    return bytes
}

/// Connects a client to a local server and waits for the handshake.
func connectedTransport(port: Int, subprotocol: String = "rewind.v1", recorder: ClientEventRecorder,
                        transport: WebSocketClient = WebSocketClient()) -> WebSocketClient {
    transport.connect(to: WebSocketURL(host: "127.0.0.1", port: port), subprotocol: subprotocol, delegate: recorder)
    #expect(recorder.wait { $0.connectCount == 1 }, "the client did not connect")
    return transport
}

/// Sends, retrying while the transport's backlog is full.
func sendAll(_ messages: some Sequence<[UInt8]>, over transport: WebSocketClient) {
    for message in messages {
        while !transport.send(message) { usleep(200) }
    }
}

@Suite("WebSocketClient with WebSocketServer")
struct TransportClientServerTests {
    @Test("messages, empty ones too, go from client to server and back (echo)")
    func echo() throws {
        let server = ServerEventRecorder(echo: true)
        let (webSocketServer, port) = try startServer(server)
        defer { webSocketServer.stop() }
        let client = ClientEventRecorder()
        let transport = connectedTransport(port: port, recorder: client)
        defer { transport.disconnect() }
        #expect(transport.send(Array("hello".utf8)))
        #expect(transport.send([]))
        #expect(client.wait { $0.received.count == 2 })
        #expect(client.received == [Array("hello".utf8), []])
        #expect(server.wait { $0.receivedCount == 2 })
        guard let id = server.openedConnections.first else { Issue.record("no connection"); return }
        #expect(server.messages(from: id) == [Array("hello".utf8), []])
    }

    @Test("the server's sends reach the client, and the client's subprotocol reaches the server")
    func serverToClient() throws {
        let server = ServerEventRecorder()
        let (webSocketServer, port) = try startServer(server)
        defer { webSocketServer.stop() }
        let client = ClientEventRecorder()
        let transport = connectedTransport(port: port, subprotocol: "rewind.control.v1", recorder: client)
        defer { transport.disconnect() }
        #expect(server.wait { $0.openedConnections.count == 1 })
        guard case .opened(let id, let subprotocol, let origin, _) = server.events.first else {
            Issue.record("no open"); return
        }
        #expect(subprotocol == "rewind.control.v1")
        #expect(origin == nil)
        #expect(webSocketServer.send(Array("welcome".utf8), to: id))
        #expect(client.wait { $0.received.count == 1 })
        #expect(client.received.first == Array("welcome".utf8))
    }

    @Test("10,000 messages arrive in order in both directions")
    func ordered() throws {
        let server = ServerEventRecorder()
        let (webSocketServer, port) = try startServer(server)
        defer { webSocketServer.stop() }
        let client = ClientEventRecorder()
        let transport = connectedTransport(port: port, recorder: client)
        defer { transport.disconnect() }
        #expect(server.wait { $0.openedConnections.count == 1 })
        let id = try #require(server.openedConnections.first)

        sendAll((1...10_000).map(numbered), over: transport)
        #expect(server.wait { $0.receivedCount == 10_000 })
        #expect(server.messages(from: id) == (1...10_000).map(numbered))

        for number in 1...10_000 {
            while !webSocketServer.send(numbered(number), to: id) { usleep(200) }
        }
        #expect(client.wait { $0.receivedCount == 10_000 })
        #expect(client.received == (1...10_000).map(numbered))
    }

    @Test("a 4 MiB message crosses intact in both directions")
    func largeMessage() throws {
        let server = ServerEventRecorder(echo: true)
        let (webSocketServer, port) = try startServer(server)
        defer { webSocketServer.stop() }
        let client = ClientEventRecorder()
        let transport = connectedTransport(port: port, recorder: client)
        defer { transport.disconnect() }
        let big = payload(4 << 20, seed: 7)
        #expect(transport.send(big))
        #expect(client.wait { $0.received.count == 1 })
        #expect(client.received.first == big)
        let id = try #require(server.openedConnections.first)
        #expect(server.messages(from: id) == [big])
    }

    @Test("many clients are served at once")
    func manyClients() throws {
        let server = ServerEventRecorder(echo: true)
        let (webSocketServer, port) = try startServer(server)
        defer { webSocketServer.stop() }
        let count = 40
        let clients = (0..<count).map { _ in ClientEventRecorder() }
        let transports = clients.map { recorder in
            let transport = WebSocketClient()
            transport.connect(to: WebSocketURL(host: "127.0.0.1", port: port), subprotocol: "rewind.v1",
                              delegate: recorder)
            return transport
        }
        defer { transports.forEach { $0.disconnect() } }
        for (index, (recorder, transport)) in zip(clients, transports).enumerated() {
            #expect(recorder.wait { $0.connectCount == 1 })
            for round in 0..<10 { #expect(transport.send(Array("client \(index) round \(round)".utf8))) }
        }
        #expect(server.wait { $0.openedConnections.count == count })
        #expect(webSocketServer.connectionCount == count)
        for (index, recorder) in clients.enumerated() {
            #expect(recorder.wait { $0.received.count == 10 })
            #expect(recorder.received == (0..<10).map { Array("client \(index) round \($0)".utf8) })
        }
        #expect(server.receivedCount == count * 10)
    }

    @Test("disconnect closes with 1000 at the server and is not reported to the delegate")
    func cleanDisconnect() throws {
        let server = ServerEventRecorder()
        let (webSocketServer, port) = try startServer(server)
        defer { webSocketServer.stop() }
        let client = ClientEventRecorder()
        let transport = connectedTransport(port: port, recorder: client)
        #expect(server.wait { $0.openedConnections.count == 1 })
        #expect(transport.send(Array("last words".utf8)))
        transport.disconnect()
        transport.disconnect()  // idempotent
        let id = try #require(server.openedConnections.first)
        #expect(server.wait { $0.hasClosed(id) })
        #expect(server.closeCode(of: id) == 1000)
        #expect(server.messages(from: id) == [Array("last words".utf8)])
        #expect(client.disconnectReasons.isEmpty)
        #expect(!transport.send(Array("after".utf8)))
        #expect(transport.queuedBytes == 0)
    }

    @Test("a close from the server reaches the client with its code")
    func serverCloses() throws {
        let server = ServerEventRecorder()
        let (webSocketServer, port) = try startServer(server)
        defer { webSocketServer.stop() }
        let client = ClientEventRecorder()
        let transport = connectedTransport(port: port, recorder: client)
        defer { transport.disconnect() }
        #expect(server.wait { $0.openedConnections.count == 1 })
        let id = try #require(server.openedConnections.first)
        webSocketServer.close(id, code: WebSocketCloseCode.policyViolation, reason: "bad token")
        #expect(client.wait { $0.disconnectReasons.count == 1 })
        let reason = try #require(client.disconnectReasons.first)
        #expect(reason.contains("1008"), "\(reason)")
        #expect(reason.contains("bad token"), "\(reason)")
        #expect(!transport.send(Array("too late".utf8)))
        #expect(server.wait { $0.hasClosed(id) })
        #expect(server.closeCode(of: id) == 1008)
    }

    @Test("stopping the server tells connected clients (1001) and they can reconnect to a new one")
    func serverStops() throws {
        let server = ServerEventRecorder()
        let (webSocketServer, port) = try startServer(server)
        let client = ClientEventRecorder()
        let transport = connectedTransport(port: port, recorder: client)
        defer { transport.disconnect() }
        webSocketServer.stop()
        #expect(client.wait { $0.disconnectReasons.count == 1 })
        #expect(client.disconnectReasons.first?.contains("1001") == true, "\(client.disconnectReasons)")

        let second = ServerEventRecorder(echo: true)
        let (secondServer, secondPort) = try startServer(second)
        defer { secondServer.stop() }
        transport.connect(to: WebSocketURL(host: "127.0.0.1", port: secondPort), subprotocol: "rewind.v1",
                          delegate: client)
        #expect(client.wait { $0.connectCount == 2 })
        #expect(transport.send(Array("again".utf8)))
        #expect(client.wait { $0.received == [Array("again".utf8)] })
    }

    @Test("connecting while connected replaces the connection without reporting the old one")
    func replaceConnection() throws {
        let server = ServerEventRecorder()
        let (webSocketServer, port) = try startServer(server)
        defer { webSocketServer.stop() }
        let first = ClientEventRecorder()
        let transport = connectedTransport(port: port, recorder: first)
        defer { transport.disconnect() }
        let second = ClientEventRecorder()
        transport.connect(to: WebSocketURL(host: "127.0.0.1", port: port), subprotocol: "rewind.v1", delegate: second)
        #expect(second.wait { $0.connectCount == 1 })
        #expect(server.wait { $0.openedConnections.count == 2 })
        let old = server.openedConnections[0]
        #expect(server.wait { $0.hasClosed(old) })
        #expect(server.closeCode(of: old) == 1000)
        #expect(first.disconnectReasons.isEmpty)
        #expect(transport.send(Array("via the new one".utf8)))
        #expect(server.wait { $0.messages(from: server.openedConnections[1]).count == 1 })
    }

    @Test("disconnecting from inside a delegate callback neither deadlocks nor reports")
    func disconnectFromCallback() throws {
        let server = ServerEventRecorder()
        let (webSocketServer, port) = try startServer(server)
        defer { webSocketServer.stop() }
        let client = ClientEventRecorder()
        let transport = WebSocketClient()
        client.onConnect { [transport] in transport.disconnect() }
        transport.connect(to: WebSocketURL(host: "127.0.0.1", port: port), subprotocol: "rewind.v1", delegate: client)
        #expect(client.wait { $0.connectCount == 1 })
        #expect(server.wait { $0.anyClosed })
        #expect(client.disconnectReasons.isEmpty)
        #expect(!transport.send([1]))
    }

    @Test("a stalled server fills the client's backlog, send refuses, and everything drains once it resumes")
    func backpressure() throws {
        let server = ServerEventRecorder(keepMessages: false)
        let (webSocketServer, port) = try startServer(server)
        defer {
            server.openGate()
            webSocketServer.stop()
        }
        let client = ClientEventRecorder()
        let cap = 1 << 20
        let transport = connectedTransport(port: port, recorder: client,
                                           transport: WebSocketClient(maxQueuedBytes: cap))
        defer { transport.disconnect() }
        server.closeGate()
        #expect(transport.send(Array("stall here".utf8)))
        #expect(server.wait { $0.isBlocked })
        let chunk = payload(256 << 10)
        var accepted = 0
        while transport.send(chunk) && accepted < 2_000 { accepted += 1 }
        #expect(accepted < 2_000, "the backlog never filled")
        #expect(transport.queuedBytes > 0)
        #expect(transport.queuedBytes <= cap)
        server.openGate()
        #expect(server.wait { $0.receivedCount == 1 + accepted })
        #expect(server.receivedBytes == "stall here".utf8.count + accepted * chunk.count)
        #expect(ProcessResources.settle { transport.queuedBytes == 0 })
        #expect(transport.send(chunk))
    }

    @Test("sends from several threads at once all arrive, each thread's in order")
    func concurrentSends() throws {
        let server = ServerEventRecorder()
        let (webSocketServer, port) = try startServer(server)
        defer { webSocketServer.stop() }
        let client = ClientEventRecorder()
        let transport = connectedTransport(port: port, recorder: client)
        defer { transport.disconnect() }
        #expect(server.wait { $0.openedConnections.count == 1 })
        let id = try #require(server.openedConnections.first)
        let threads = 4
        let perThread = 2_500
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            sendAll((0..<perThread).lazy.map { Array("\(thread) \($0)".utf8) }, over: transport)
        }
        #expect(server.wait { $0.receivedCount == threads * perThread })
        var next = [Int](repeating: 0, count: threads)
        for message in server.messages(from: id) {
            let parts = String(decoding: message, as: UTF8.self).split(separator: " ")
            let thread = Int(parts[0])!
            #expect(Int(parts[1]) == next[thread])
            next[thread] += 1
        }
        #expect(next == [Int](repeating: perThread, count: threads))
    }

    @Test("an incoming message over the client's limit closes the connection")
    func clientLimit() throws {
        let server = ServerEventRecorder()
        let (webSocketServer, port) = try startServer(server)
        defer { webSocketServer.stop() }
        let client = ClientEventRecorder()
        let transport = connectedTransport(port: port, recorder: client,
                                           transport: WebSocketClient(maxMessageBytes: 1_000))
        defer { transport.disconnect() }
        #expect(server.wait { $0.openedConnections.count == 1 })
        let id = try #require(server.openedConnections.first)
        #expect(webSocketServer.send(payload(1_001), to: id))
        #expect(client.wait { $0.disconnectReasons.count == 1 })
        #expect(client.received.isEmpty)
        #expect(server.wait { $0.hasClosed(id) })
        #expect(server.closeCode(of: id) == 1009)
    }
}

@Suite("WebSocketClient without a server")
struct TransportClientFailureTests {
    @Test("sending before connecting is refused")
    func sendUnconnected() {
        let transport = WebSocketClient()
        #expect(!transport.send([1, 2, 3]))
        #expect(transport.queuedBytes == 0)
        transport.disconnect()
    }

    @Test("50 failed connects each report a disconnect, leak nothing, and a later connect works")
    func failedConnects() throws {
        let port = FreePort.unused()
        let transport = WebSocketClient()
        let client = ClientEventRecorder()
        let url = WebSocketURL(host: "127.0.0.1", port: port)
        // Warm up once so the context and its thread exist before counting.
        transport.connect(to: url, subprotocol: "rewind.v1", delegate: client)
        #expect(client.wait { $0.disconnectReasons.count == 1 })
        let descriptors = ProcessResources.openFileDescriptors
        let threads = ProcessResources.threads
        for attempt in 2...51 {
            let started = Date()
            transport.connect(to: url, subprotocol: "rewind.v1", delegate: client)
            #expect(Date().timeIntervalSince(started) < TestTime.seconds(0.1), "connect blocked the caller")
            #expect(client.wait { $0.disconnectReasons.count == attempt })
        }
        #expect(client.connectCount == 0)
        #expect(client.disconnectReasons.allSatisfy { $0.contains("cannot connect") }, "\(client.disconnectReasons.last ?? "")")
        // Other tests run in this process at the same time: allow their noise, not one leak per attempt.
        #expect(ProcessResources.settle(timeout: 10) { ProcessResources.openFileDescriptors < descriptors + 25 })
        #expect(ProcessResources.settle(timeout: 10) { ProcessResources.threads < threads + 10 })

        let recorder = ServerEventRecorder(echo: true)
        let server = WebSocketServer(configuration: WebSocketServerConfiguration(port: port), delegate: recorder)
        try server.start()
        defer { server.stop() }
        transport.connect(to: url, subprotocol: "rewind.v1", delegate: client)
        #expect(client.wait { $0.connectCount == 1 })
        #expect(transport.send(Array("finally".utf8)))
        #expect(client.wait { $0.received == [Array("finally".utf8)] })
        transport.disconnect()
    }

    @Test("reconnecting from the disconnect callback, as the inspector's retry loop does, keeps working")
    func reconnectFromCallback() throws {
        let port = FreePort.unused()
        let transport = WebSocketClient()
        let client = ClientEventRecorder()
        let url = WebSocketURL(host: "127.0.0.1", port: port)
        client.onDisconnect { [transport, client] _ in
            if client.disconnectReasons.count < 20 {
                transport.connect(to: url, subprotocol: "rewind.v1", delegate: client)
            }
        }
        transport.connect(to: url, subprotocol: "rewind.v1", delegate: client)
        #expect(client.wait { $0.disconnectReasons.count == 20 })
        transport.disconnect()
    }

    @Test("a refused handshake is reported as a disconnect")
    func refusedHandshake() throws {
        let server = ServerEventRecorder()
        let (webSocketServer, port) = try startServer(server)
        defer { webSocketServer.stop() }
        let client = ClientEventRecorder()
        let transport = WebSocketClient()
        defer { transport.disconnect() }
        transport.connect(to: WebSocketURL(host: "127.0.0.1", port: port), subprotocol: "chat", delegate: client)
        #expect(client.wait { $0.disconnectReasons.count == 1 })
        #expect(client.connectCount == 0)
        #expect(server.events.isEmpty)
    }

    @Test("releasing a connected client without disconnecting ends its connection")
    func releaseWithoutDisconnect() throws {
        let server = ServerEventRecorder()
        let (webSocketServer, port) = try startServer(server)
        defer { webSocketServer.stop() }
        let client = ClientEventRecorder()
        do {
            let transport = connectedTransport(port: port, recorder: client)
            #expect(transport.send([0x41]))
        }
        #expect(server.wait { $0.anyClosed })
    }
}

@Suite("WebSocketURL")
struct WebSocketURLTests {
    @Test("parses host, port and path of a ws URL")
    func parses() {
        #expect(WebSocketURL(string: "ws://127.0.0.1:7723") == WebSocketURL(host: "127.0.0.1", port: 7723, path: "/"))
        #expect(WebSocketURL(string: "ws://example.com/path?x=1") == WebSocketURL(host: "example.com", port: 80,
                                                                                  path: "/path?x=1"))
        #expect(WebSocketURL(string: "WS://[::1]:9000/a") == WebSocketURL(host: "::1", port: 9000, path: "/a"))
    }

    @Test("refuses what the client cannot connect to")
    func refuses() {
        #expect(WebSocketURL(string: "wss://127.0.0.1:7723") == nil)
        #expect(WebSocketURL(string: "http://127.0.0.1") == nil)
        #expect(WebSocketURL(string: "ws://127.0.0.1:0") == nil)
        #expect(WebSocketURL(string: "ws://127.0.0.1:99999") == nil)
        #expect(WebSocketURL(string: "ws://:7723") == nil)
        #expect(WebSocketURL(string: "ws://[::1") == nil)
    }

    @Test("prints back as a ws URL")
    func prints() {
        #expect(WebSocketURL(host: "::1", port: 7723).description == "ws://[::1]:7723/")
        #expect(WebSocketURL(host: "127.0.0.1", port: 7723, path: "x").description == "ws://127.0.0.1:7723/x")
    }
}
