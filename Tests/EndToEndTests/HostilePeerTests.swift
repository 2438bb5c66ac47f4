import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTestSupport
import RewindWire
import Testing

/// Peers that take resources without giving anything back, against a real daemon with short limits: connections
/// that never say hello, messages never finished, oversized messages before the token check, more connections
/// than the daemon serves, viewers that never read. Each time a well-behaved app must still get in and record.
@Suite("Hostile peers: silent, half-sent, oversized, too many, too slow")
struct HostilePeerTests {
    /// Connects a well-behaved app, records `count` actions and checks they all reached its file.
    private func expectGoodAppRecords(_ harness: DaemonHarness, count: Int = 5, token: String? = nil,
                                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        let app = try DaemonPeer(port: harness.port)
        let session = try #require(try app.hello(AppFrames.hello(name: "good", token: token)),
                                   sourceLocation: sourceLocation)
        for seq in 1...count { try app.send(AppFrames.action(seq: seq)) }
        app.expectOpen(sourceLocation: sourceLocation)
        harness.daemon.waitUntilIdle(timeout: TestTime.seconds(10))
        let live = try #require(harness.daemon.session(try SessionID(validating: session)),
                                sourceLocation: sourceLocation)
        #expect(try harness.lastRecordedState(live) == ["count": .int(Int64(count))], sourceLocation: sourceLocation)
    }

    @Test("a connection that never sends hello is closed with 1008 once the hello timeout passes")
    func silentConnectionTimesOut() throws {
        let harness = try DaemonHarness { $0.helloTimeout = 0.5 }
        defer { harness.tearDown() }
        let silent = try DaemonPeer(port: harness.port, timeout: TestTime.seconds(5))
        #expect(silent.handshakeStatus == 101)
        let started = Date()
        silent.expectClose(1008)
        #expect(Date().timeIntervalSince(started) < TestTime.seconds(3))
        // A control client that never sends a request is held no longer.
        let control = try DaemonPeer(port: harness.port, subprotocol: WireProtocol.controlSubprotocol,
                                     timeout: TestTime.seconds(5))
        control.expectClose(1008)
        // An app that said hello in time is not touched by the timeout.
        let app = try DaemonPeer(port: harness.port)
        try app.hello()
        usleep(1_000_000)
        app.expectOpen()
        try expectGoodAppRecords(harness)
    }

    @Test("a message never finished is closed with 1008 once the message timeout passes")
    func halfSentMessageTimesOut() throws {
        let harness = try DaemonHarness { $0.messageTimeout = 0.5 }
        defer { harness.tearDown() }
        let peer = try DaemonPeer(port: harness.port, timeout: TestTime.seconds(5))
        try peer.hello()
        // A frame announcing 64 KiB, of which only the first kilobyte ever comes.
        let frame = RawWebSocketClient.frame(opcode: RawWebSocketClient.Opcode.text,
                                             payload: [UInt8](repeating: 0x20, count: 64 << 10))
        try peer.raw.sendRaw(Array(frame.prefix(1_024)))
        peer.expectClose(1008)
        try expectGoodAppRecords(harness)
    }

    @Test("with a token, a message beyond the unauthenticated limit is closed with 1009 before it is buffered")
    func unauthenticatedMessagesAreSmall() throws {
        let harness = try DaemonHarness(token: "s3cret") { $0.maxUnauthenticatedMessageBytes = 64 << 10 }
        defer { harness.tearDown() }
        let hostile = try DaemonPeer(port: harness.port)
        // Announces 32 MiB (far below the 64 MiB message limit) and sends the first kilobyte of it.
        let frame = RawWebSocketClient.frame(opcode: RawWebSocketClient.Opcode.text,
                                             payload: [UInt8](repeating: 0x20, count: 1_024), declaredLength: 32 << 20)
        try hostile.raw.sendRaw(frame)
        hostile.expectClose(1009)
        // Sent as many small fragments, the message is refused as soon as it passes the limit.
        let fragmented = try DaemonPeer(port: harness.port)
        let chunk = [UInt8](repeating: 0x20, count: 16 << 10)
        try fragmented.raw.sendFrame(opcode: RawWebSocketClient.Opcode.text, payload: chunk, fin: false)
        for _ in 0..<4 {
            try fragmented.raw.sendFrame(opcode: RawWebSocketClient.Opcode.continuation, payload: chunk, fin: false)
        }
        fragmented.expectClose(1009)
        // Once the token was checked, the full limit applies: a 1 MiB action is recorded.
        let app = try DaemonPeer(port: harness.port)
        try app.hello(AppFrames.hello(name: "big", token: "s3cret"))
        let big = String(repeating: "x", count: 1 << 20)
        try app.send(AppFrames.action(seq: 1, patch: #"[{"op":"add","path":"/big","value":"\#(big)"}]"#))
        app.expectOpen()
        try expectGoodAppRecords(harness, token: "s3cret")
    }

    @Test("at the connection limit the daemon stops accepting without spinning, and serves again once silent peers time out")
    func connectionLimitDegradesGracefully() throws {
        let harness = try DaemonHarness {
            $0.maxConnections = 8
            $0.helloTimeout = 1
        }
        defer { harness.tearDown() }
        var silent: [RawWebSocketClient] = []
        for _ in 0..<24 {
            let client = try RawWebSocketClient(port: harness.port, timeout: 0.2)
            try? client.sendRaw(Array(("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: rewind.v1\r\n\r\n").utf8))
            silent.append(client)
        }
        let thread = "rws-\(harness.port)"  // the service thread names itself as it starts
        #expect(ProcessResources.settle { ProcessCPU.seconds(ofThreadNamed: thread) != nil })
        usleep(200_000)  // the connections under the limit are handshaking
        let cpuBefore = try #require(ProcessCPU.seconds(ofThreadNamed: thread))
        usleep(500_000)
        let cpuUsed = try #require(ProcessCPU.seconds(ofThreadNamed: thread)) - cpuBefore
        #expect(cpuUsed < TestTime.seconds(0.1), "the service thread used \(cpuUsed) s of CPU in 0.5 s while at its limit")
        // The silent ones time out (in turns of 8), then a good app gets in and records.
        let deadline = Date(timeIntervalSinceNow: TestTime.seconds(10))
        var recorded = false
        while !recorded && Date() < deadline {
            do {
                try expectGoodAppRecords(harness)
                recorded = true
            } catch {
                usleep(200_000)
            }
        }
        #expect(recorded)
        silent.forEach { $0.drop() }
    }

    @Test("a tail viewer that never reads is closed with 1013 once its queue is full; the app records on")
    func slowViewerIsDropped() throws {
        let harness = try DaemonHarness { $0.maxQueuedBytesPerPeer = 256 << 10 }
        defer { harness.tearDown() }
        let viewer = try DaemonPeer(port: harness.port, subprotocol: WireProtocol.controlSubprotocol,
                                    timeout: TestTime.seconds(10))
        try viewer.request("1", "tail")
        let app = try DaemonPeer(port: harness.port)
        try app.hello(AppFrames.hello(name: "busy"))
        // About 40 MB of events (each carries its 20 KB patch): far beyond the socket buffers and the queue.
        let filler = String(repeating: "y", count: 20_000)
        for seq in 1...2_000 {
            try app.send(AppFrames.action(seq: seq, patch: #"[{"op":"add","path":"/f","value":"\#(filler)"}]"#))
        }
        app.expectOpen()
        harness.daemon.waitUntilIdle(timeout: TestTime.seconds(20))
        // Reading now, the viewer finds what had been written before, then the close.
        let code = try viewer.raw.readCloseCode()
        #expect(code == 1013)
        app.expectOpen()
    }
}
