import Foundation
import RewindTestSupport
import RewindWebSocket
import Testing

/// A `WebSocketServerDelegate` that hands everything to a `ServerEventRecorder` and also keeps, per connection, the
/// close code and reason `didClose` reported and when it came.
///
/// Threading: callbacks on the server's service thread; reads from any thread (the record is behind `lock`).
private final class KeepaliveRecorder: WebSocketServerDelegate, @unchecked Sendable {
    // @unchecked: `closes` is only touched with `lock` held.

    /// One `didClose` report.
    struct Close {
        var code: UInt16?
        var reason: String
        var at: ContinuousClock.Instant
    }

    let events = ServerEventRecorder()
    private let lock = NSLock()
    private var closes: [ConnectionID: Close] = [:]

    /// What `didClose` reported for a connection, if it has closed.
    func close(of id: ConnectionID) -> Close? {
        lock.withLock { closes[id] }
    }

    func server(_ server: WebSocketServer, didOpen id: ConnectionID, subprotocol: String, origin: String?,
                peer: String) -> Bool {
        events.server(server, didOpen: id, subprotocol: subprotocol, origin: origin, peer: peer)
    }

    func server(_ server: WebSocketServer, didReceive message: [UInt8], isBinary: Bool, from id: ConnectionID) {
        events.server(server, didReceive: message, isBinary: isBinary, from: id)
    }

    func server(_ server: WebSocketServer, didClose id: ConnectionID, code: UInt16?) {
        Issue.record("the server called didClose without a reason although the delegate takes one")
        events.server(server, didClose: id, code: code)
    }

    func server(_ server: WebSocketServer, didClose id: ConnectionID, code: UInt16?, reason: String) {
        let now = ContinuousClock.now
        lock.withLock { closes[id] = Close(code: code, reason: reason, at: now) }
        events.server(server, didClose: id, code: code)
    }
}

/// The answers of `WebSocketServer.probe` calls, in the order they came, with when they came and how many.
///
/// Threading: `record` from any thread (the server's service thread or the caller's); reads and waits from tests.
private final class ProbeAnswers: @unchecked Sendable {
    // @unchecked: `answers` is only touched with `condition` locked.
    private let condition = NSCondition()
    private var answers: [(answer: Bool, at: ContinuousClock.Instant)] = []

    /// The completion to hand to `probe`.
    var completion: @Sendable (Bool) -> Void {
        { [self] answer in record(answer) }
    }

    func record(_ answer: Bool) {
        let now = ContinuousClock.now
        condition.lock()
        answers.append((answer, now))
        condition.broadcast()
        condition.unlock()
    }

    /// The answers so far.
    var all: [Bool] {
        condition.lock()
        defer { condition.unlock() }
        return answers.map(\.answer)
    }

    /// When the first answer came.
    var firstAt: ContinuousClock.Instant? {
        condition.lock()
        defer { condition.unlock() }
        return answers.first?.at
    }

    /// Waits until `count` answers came or `timeout` seconds (stretched by `TestTime`) passed.
    @discardableResult
    func wait(for count: Int = 1, timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: TestTime.seconds(timeout))
        condition.lock()
        defer { condition.unlock() }
        while answers.count < count {
            if !condition.wait(until: deadline) { return answers.count >= count }
        }
        return true
    }
}

/// Starts a server on a free loopback port with `delegate`.
private func startKeepaliveServer(_ delegate: any WebSocketServerDelegate,
                                  _ configure: (inout WebSocketServerConfiguration) -> Void = { _ in })
    throws -> (WebSocketServer, Int) {
    var configuration = WebSocketServerConfiguration(port: 0)
    configure(&configuration)
    let server = WebSocketServer(configuration: configuration, delegate: delegate)
    return (server, try server.start())
}

/// A raw client that has done its handshake, and the connection's id on the server.
private func rawPeer(port: Int, recorder: KeepaliveRecorder) throws -> (RawWebSocketClient, ConnectionID) {
    let before = recorder.events.openedConnections.count
    let client = try RawWebSocketClient(port: port, timeout: TestTime.seconds(5))
    #expect(try client.handshake().status == 101)
    #expect(recorder.events.wait { $0.openedConnections.count > before })
    return (client, try #require(recorder.events.openedConnections.last))
}

/// Seconds from `start` to `end`.
private func seconds(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant) -> Double {
    let duration = start.duration(to: end)
    return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

private let ping = RawWebSocketClient.Opcode.ping

@Suite("WebSocketServer keepalive and probes", .serialized)
struct ServerKeepaliveTests {
    // Keepalive settings for the tests that time a close: 0.2 s of silence, then 0.3 s to answer. The server checks
    // every 50 ms (a quarter of the shorter, at least 50 ms): the close comes 0.5–0.6 s after the peer was last
    // heard.
    static let interval = 0.2
    static let timeout = 0.3
    static let sweep = 0.05

    @Test("a peer that sends nothing and never answers pings is dropped after about interval + timeout, with 1006")
    func silentPeerDropped() throws {
        let recorder = KeepaliveRecorder()
        let (server, port) = try startKeepaliveServer(recorder) {
            $0.keepaliveInterval = Self.interval
            $0.keepaliveTimeout = Self.timeout
        }
        defer { server.stop() }
        let start = ContinuousClock.now  // before the handshake, so the server's clock starts later than this
        let (client, id) = try rawPeer(port: port, recorder: recorder)
        let handshakeDone = ContinuousClock.now

        #expect(recorder.events.wait(timeout: 5) { $0.hasClosed(id) })
        let close = try #require(recorder.close(of: id))
        #expect(close.code == WebSocketCloseCode.abnormalClosure)
        #expect(close.reason.contains("did not answer a ping"), "reason: \(close.reason)")
        // Not before interval + timeout of silence (counted from the handshake, which ended before `handshakeDone`).
        #expect(seconds(from: handshakeDone, to: close.at) >= Self.interval + Self.timeout - 0.02)
        // And not much later: two sweeps of granularity, plus slack for a busy machine.
        let bound = TestTime.seconds(Self.interval + Self.timeout + 2 * Self.sweep + 0.4)
        #expect(seconds(from: start, to: close.at) <= bound)
        #expect(server.connectionCount == 0)
        #expect(!server.send(Array("late".utf8), to: id))

        // What reached the peer: the ping(s), 8 bytes of payload each, then the end of the connection without a
        // close frame (a dead peer would not take one; the server does not wait for it).
        let (frames, ended) = client.readFrames(for: TestTime.seconds(3))
        #expect(frames.contains { $0.opcode == ping && $0.payload.count == 8 })
        #expect(frames.allSatisfy { $0.opcode == ping }, "frames: \(frames.map(\.opcode))")
        #expect(ended)
    }

    @Test("a raw peer that answers pings stays open while idle for many intervals, pinged about once an interval")
    func answeringRawPeerStaysOpen() throws {
        let recorder = KeepaliveRecorder()
        let (server, port) = try startKeepaliveServer(recorder) {
            $0.keepaliveInterval = 0.1
            $0.keepaliveTimeout = TestTime.seconds(0.3)
        }
        defer { server.stop() }
        let (client, id) = try rawPeer(port: port, recorder: recorder)
        // 12 intervals, stretched under a sanitizer (where the server's thread may wait long for a core): at least 4
        // pings, and never more than one per interval.
        let start = ContinuousClock.now
        let (frames, ended) = client.readFrames(for: TestTime.seconds(1.2), answeringPings: true)
        let read = seconds(from: start, to: ContinuousClock.now)
        #expect(!ended)
        let pings = frames.filter { $0.opcode == ping }
        #expect(pings.count >= 4, "only \(pings.count) pings in \(read) s with a 0.1 s interval")
        #expect(pings.count <= Int(read / 0.1) + 1, "\(pings.count) pings in \(read) s with a 0.1 s interval")
        #expect(frames.count == pings.count, "frames: \(frames.map(\.opcode))")
        #expect(Set(pings.map(\.payload)).count == pings.count, "every ping carries its own number")
        #expect(!recorder.events.hasClosed(id))
        #expect(server.connectionCount == 1)
    }

    @Test("libwebsockets' own client answers pings by itself and stays open while idle for many intervals")
    func libwebsocketsClientStaysOpen() throws {
        let recorder = KeepaliveRecorder()
        let (server, port) = try startKeepaliveServer(recorder) {
            $0.keepaliveInterval = 0.1
            $0.keepaliveTimeout = TestTime.seconds(0.3)
        }
        defer { server.stop() }
        let client = ClientEventRecorder()
        let transport = connectedTransport(port: port, recorder: client)
        defer { transport.disconnect() }
        #expect(recorder.events.wait { $0.openedConnections.count == 1 })
        let id = try #require(recorder.events.openedConnections.first)
        // 12 intervals idle: without pongs the server would drop the connection after interval + timeout.
        #expect(!recorder.events.wait(timeout: 1.2) { $0.hasClosed(id) })
        #expect(client.disconnectReasons.isEmpty)
        #expect(server.connectionCount == 1)
        // Still usable both ways.
        #expect(server.send(Array("still here".utf8), to: id))
        #expect(client.wait { $0.received.count == 1 })
        #expect(transport.send(Array("me too".utf8)))
        #expect(recorder.events.wait { $0.receivedCount == 1 })
    }

    @Test("keepalive is off by default: an idle peer is never pinged nor dropped")
    func offByDefault() throws {
        let recorder = KeepaliveRecorder()
        let (server, port) = try startKeepaliveServer(recorder)
        defer { server.stop() }
        #expect(server.configuration.keepaliveInterval == 0)
        let (client, id) = try rawPeer(port: port, recorder: recorder)
        let (frames, ended) = client.readFrames(for: 1.0)
        #expect(frames.isEmpty, "frames: \(frames.map(\.opcode))")
        #expect(!ended)
        #expect(!recorder.events.hasClosed(id))
        #expect(server.connectionCount == 1)
    }

    @Test("while reading is stopped a silent peer is not dropped; its silence counts again once reading resumes")
    func pausedConnectionKept() throws {
        let recorder = KeepaliveRecorder()
        let (server, port) = try startKeepaliveServer(recorder) {
            $0.keepaliveInterval = Self.interval
            $0.keepaliveTimeout = Self.timeout
        }
        defer { server.stop() }
        let (client, id) = try rawPeer(port: port, recorder: recorder)
        server.setReceiving(false, for: id)
        // Four times what a silent peer gets.
        #expect(!recorder.events.wait(timeout: 4 * (Self.interval + Self.timeout)) { $0.hasClosed(id) })
        #expect(server.connectionCount == 1)

        let resumed = ContinuousClock.now
        server.setReceiving(true, for: id)
        #expect(recorder.events.wait(timeout: 5) { $0.hasClosed(id) })
        let close = try #require(recorder.close(of: id))
        #expect(close.code == WebSocketCloseCode.abnormalClosure)
        let afterResuming = seconds(from: resumed, to: close.at)
        #expect(afterResuming >= Self.interval + Self.timeout - 0.02, "dropped \(afterResuming) s after resuming")
        #expect(afterResuming <= TestTime.seconds(Self.interval + Self.timeout + 2 * Self.sweep + 0.4))
        _ = client
    }

    @Test("a probe of a live peer answers true at once")
    func probeLivePeer() throws {
        let recorder = KeepaliveRecorder()
        let (server, port) = try startKeepaliveServer(recorder)
        defer { server.stop() }
        let client = ClientEventRecorder()
        let transport = connectedTransport(port: port, recorder: client)
        defer { transport.disconnect() }
        #expect(recorder.events.wait { $0.openedConnections.count == 1 })
        let id = try #require(recorder.events.openedConnections.first)
        for _ in 0..<3 {
            let answers = ProbeAnswers()
            let start = ContinuousClock.now
            server.probe(id, timeout: TestTime.seconds(5), completion: answers.completion)
            #expect(answers.wait(timeout: 5))
            #expect(answers.all == [true])
            let latency = seconds(from: start, to: try #require(answers.firstAt))
            #expect(latency < TestTime.seconds(0.25), "answered after \(latency) s")
        }
        #expect(server.connectionCount == 1)
    }

    @Test("a probe of a silent peer answers false once its timeout passes, and leaves the connection open")
    func probeSilentPeer() throws {
        let recorder = KeepaliveRecorder()
        let (server, port) = try startKeepaliveServer(recorder)
        defer { server.stop() }
        let (client, id) = try rawPeer(port: port, recorder: recorder)
        let answers = ProbeAnswers()
        let start = ContinuousClock.now
        server.probe(id, timeout: 0.3, completion: answers.completion)
        #expect(answers.wait(timeout: 5))
        #expect(answers.all == [false])
        let waited = seconds(from: start, to: try #require(answers.firstAt))
        #expect(waited >= 0.3 - 0.002, "answered after \(waited) s")
        #expect(waited <= TestTime.seconds(0.3 + 0.3), "answered after \(waited) s")
        // The ping did go out; the probe closes nothing.
        let (frames, _) = client.readFrames(for: TestTime.seconds(0.2))
        #expect(frames.map(\.opcode) == [ping])
        #expect(server.connectionCount == 1)
        #expect(!recorder.events.hasClosed(id))
        // Answered exactly once.
        #expect(!answers.wait(for: 2, timeout: 0.2))
    }

    @Test("a probe answers false at once, on the calling thread, for an unknown, closing or closed connection")
    func probeUnknownClosingClosed() throws {
        let recorder = KeepaliveRecorder()
        let (server, port) = try startKeepaliveServer(recorder)
        defer { server.stop() }

        let unknown = ProbeAnswers()
        server.probe(ConnectionID(rawValue: 999), timeout: 5, completion: unknown.completion)
        #expect(unknown.all == [false])  // already there when probe returned

        let (closing, closingID) = try rawPeer(port: port, recorder: recorder)
        server.close(closingID, code: WebSocketCloseCode.normalClosure, reason: "bye")
        let whileClosing = ProbeAnswers()
        server.probe(closingID, timeout: 5, completion: whileClosing.completion)
        #expect(whileClosing.all == [false])
        #expect(try closing.readCloseCode() == WebSocketCloseCode.normalClosure)
        #expect(recorder.events.wait { $0.hasClosed(closingID) })
        #expect(recorder.close(of: closingID)?.reason == "bye")
        let afterClose = ProbeAnswers()
        server.probe(closingID, timeout: 5, completion: afterClose.completion)
        #expect(afterClose.all == [false])

        let stopped = WebSocketServer(configuration: WebSocketServerConfiguration(port: 0), delegate: recorder)
        let beforeStart = ProbeAnswers()
        stopped.probe(ConnectionID(rawValue: 1), timeout: 5, completion: beforeStart.completion)
        #expect(beforeStart.all == [false])
        stopped.stop()
    }

    @Test("a waiting probe answers false once when its connection closes or the server stops")
    func probeEndsWithConnection() throws {
        let recorder = KeepaliveRecorder()
        let (server, port) = try startKeepaliveServer(recorder)
        defer { server.stop() }

        let (dropping, droppingID) = try rawPeer(port: port, recorder: recorder)
        let dropped = ProbeAnswers()
        server.probe(droppingID, timeout: 30, completion: dropped.completion)
        Thread.sleep(forTimeInterval: 0.05)  // the ping goes out before the peer vanishes
        dropping.drop()
        #expect(dropped.wait(timeout: 5))
        #expect(dropped.all == [false])
        #expect(recorder.events.wait { $0.hasClosed(droppingID) })

        let (staying, stayingID) = try rawPeer(port: port, recorder: recorder)
        let atStop = ProbeAnswers()
        server.probe(stayingID, timeout: 30, completion: atStop.completion)
        server.stop()  // waits for the service thread, which answers every probe before it ends
        #expect(atStop.all == [false])
        #expect(!dropped.wait(for: 2, timeout: 0.2))
        #expect(!atStop.wait(for: 2, timeout: 0.2))
        _ = staying
    }

    @Test("probes from many threads at once each get exactly one answer")
    func concurrentProbes() async throws {
        let recorder = KeepaliveRecorder()
        let (server, port) = try startKeepaliveServer(recorder)
        defer { server.stop() }
        let client = ClientEventRecorder()
        let transport = connectedTransport(port: port, recorder: client)
        defer { transport.disconnect() }
        #expect(recorder.events.wait { $0.openedConnections.count == 1 })
        let liveID = try #require(recorder.events.openedConnections.first)
        let (silent, silentID) = try rawPeer(port: port, recorder: recorder)
        let live = ProbeAnswers()
        let dead = ProbeAnswers()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask {
                    if index.isMultiple(of: 2) {
                        server.probe(liveID, timeout: TestTime.seconds(10), completion: live.completion)
                    } else {
                        server.probe(silentID, timeout: 0.3, completion: dead.completion)
                    }
                }
            }
        }
        #expect(live.wait(for: 100, timeout: 10))
        #expect(dead.wait(for: 100, timeout: 10))
        #expect(!live.wait(for: 101, timeout: 0.3))
        #expect(!dead.wait(for: 101, timeout: 0.1))
        #expect(live.all == Array(repeating: true, count: 100))
        #expect(dead.all == Array(repeating: false, count: 100))
        _ = silent
    }

    @Test("a probe of a connection whose reading is stopped is answered by bytes the peer sends, left unread")
    func probePausedConnection() throws {
        let recorder = KeepaliveRecorder()
        let (server, port) = try startKeepaliveServer(recorder)
        defer { server.stop() }
        let (client, id) = try rawPeer(port: port, recorder: recorder)
        server.setReceiving(false, for: id)
        Thread.sleep(forTimeInterval: TestTime.seconds(0.05))  // applied on the service thread

        // Silent: false at the deadline, though the ping went out.
        let silent = ProbeAnswers()
        server.probe(id, timeout: 0.2, completion: silent.completion)
        #expect(silent.wait(timeout: 5))
        #expect(silent.all == [false])

        // The peer speaks: true, while the message stays unread.
        let answers = ProbeAnswers()
        let start = ContinuousClock.now
        server.probe(id, timeout: TestTime.seconds(5), completion: answers.completion)
        Thread.sleep(forTimeInterval: TestTime.seconds(0.05))
        try client.sendText("here")
        #expect(answers.wait(timeout: 5))
        #expect(answers.all == [true])
        #expect(seconds(from: start, to: try #require(answers.firstAt)) < TestTime.seconds(1))
        #expect(recorder.events.receivedCount == 0)
        server.setReceiving(true, for: id)
        #expect(recorder.events.wait { $0.receivedCount == 1 })
    }

    @Test("bytes the peer sent before a probe, read only after it, are no answer")
    func staleBytesAreNoAnswer() throws {
        let recorder = KeepaliveRecorder()
        let (server, port) = try startKeepaliveServer(recorder)
        defer { server.stop() }
        let (client, id) = try rawPeer(port: port, recorder: recorder)
        server.setReceiving(false, for: id)
        Thread.sleep(forTimeInterval: TestTime.seconds(0.05))
        try client.sendText("sent before the probe")
        Thread.sleep(forTimeInterval: TestTime.seconds(0.05))  // in the server's kernel buffer, unread

        let answers = ProbeAnswers()
        server.probe(id, timeout: 0.4, completion: answers.completion)
        Thread.sleep(forTimeInterval: TestTime.seconds(0.05))  // the probe has begun
        server.setReceiving(true, for: id)  // the old message is read and delivered now
        #expect(recorder.events.wait { $0.receivedCount == 1 })
        #expect(answers.wait(timeout: 5))
        #expect(answers.all == [false])
    }

    @Test("a ping goes out between the fragments of a large message, which still arrives whole")
    func pingBetweenFragments() throws {
        let recorder = KeepaliveRecorder()
        let (server, port) = try startKeepaliveServer(recorder)
        defer { server.stop() }
        let (client, id) = try rawPeer(port: port, recorder: recorder)
        // More than the loopback socket buffers hold, so the server is stuck mid-message when the probe comes.
        let big = payload(32 << 20, seed: 5)
        #expect(server.send(big, to: id))
        Thread.sleep(forTimeInterval: TestTime.seconds(0.1))
        let answers = ProbeAnswers()
        server.probe(id, timeout: TestTime.seconds(10), completion: answers.completion)

        let (frames, ended) = client.readFrames(for: TestTime.seconds(20), answeringPings: true) { frame in
            frame.fin && [RawWebSocketClient.Opcode.text, RawWebSocketClient.Opcode.continuation].contains(frame.opcode)
        }
        #expect(!ended)
        var message: [UInt8] = []
        for frame in frames where frame.opcode != ping { message += frame.payload }
        let intact = message == big  // not in #expect: a failure would print 32 MiB
        #expect(intact, "\(message.count) bytes arrived of \(big.count)")
        let opcodes = frames.map(\.opcode)
        let pingAt = try #require(opcodes.firstIndex(of: ping), "no ping in \(frames.count) frames")
        #expect(pingAt > 0 && pingAt < frames.count - 1, "the ping is frame \(pingAt) of \(frames.count)")
        #expect(frames[0].opcode == RawWebSocketClient.Opcode.text && !frames[0].fin)
        #expect(answers.wait(timeout: 5))
        #expect(answers.all == [true])
    }

    @Test("libwebsockets' client takes a ping between fragments: the message arrives whole and the probe says true")
    func libwebsocketsClientPingBetweenFragments() throws {
        let recorder = KeepaliveRecorder()
        let (server, port) = try startKeepaliveServer(recorder)
        defer { server.stop() }
        let client = ClientEventRecorder()
        let transport = connectedTransport(port: port, recorder: client)
        defer { transport.disconnect() }
        #expect(recorder.events.wait { $0.openedConnections.count == 1 })
        let id = try #require(recorder.events.openedConnections.first)
        let big = payload(32 << 20, seed: 7)
        #expect(server.send(big, to: id))
        let answers = ProbeAnswers()
        server.probe(id, timeout: TestTime.seconds(10), completion: answers.completion)
        #expect(answers.wait(timeout: 10))
        #expect(answers.all == [true])
        #expect(client.wait(timeout: 20) { $0.received.count == 1 })
        let intact = client.received.first == big  // not in #expect: a failure would print 32 MiB
        #expect(intact)
        #expect(client.disconnectReasons.isEmpty)
    }

    @Test("start refuses keepalive settings that are negative, not finite, or a keepalive without a timeout")
    func invalidSettings() {
        let recorder = KeepaliveRecorder()
        let cases: [(Double, Double)] = [(-1, 10), (.nan, 10), (.infinity, 10), (1, -1), (1, .nan), (1, .infinity),
                                         (1, 0), (0, -1)]
        for (interval, timeout) in cases {
            var configuration = WebSocketServerConfiguration(port: 0)
            configuration.keepaliveInterval = interval
            configuration.keepaliveTimeout = timeout
            let server = WebSocketServer(configuration: configuration, delegate: recorder)
            defer { server.stop() }
            #expect(throws: WebSocketServerError.self, "interval \(interval), timeout \(timeout)") {
                try server.start()
            }
        }
        var fine = WebSocketServerConfiguration(port: 0)
        fine.keepaliveInterval = 0
        fine.keepaliveTimeout = 0
        let server = WebSocketServer(configuration: fine, delegate: recorder)
        defer { server.stop() }
        #expect(throws: Never.self) { try server.start() }
    }
}
