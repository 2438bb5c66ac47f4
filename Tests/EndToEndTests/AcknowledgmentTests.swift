import Foundation
import RewindDaemon
import RewindSessionFile
import RewindInspector
import RewindTestSupport
import RewindWebSocket
import RewindWire
import Testing

/// `ack` (docs/PROTOCOL.md §3.5) is what lets an app forget what it keeps for a resend and say that its events are
/// delivered, so it must be true: it names only events committed to the session file, and the end of a burst is
/// acknowledged too (an app that waits for it before exiting must not wait forever, nor exit believing in an `ack`
/// the daemon would lose if it were killed now).
@Suite("Acknowledgments name only what is committed")
struct AcknowledgmentTests {
    /// A `hello` that reads acknowledgments.
    static func helloReadingAcks(instance: String = UUID().uuidString) -> String {
        AppFrames.hello(name: "acks", instance: instance)
            .replacingOccurrences(of: #""batch"]"#, with: #""batch","ack"]"#)
    }

    @Test("the last events of a burst are acknowledged without a later message, and are in the file by then")
    func endOfBurstIsAcknowledged() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let peer = try DaemonPeer(port: harness.port)
        try peer.send(Self.helloReadingAcks())
        let welcome = try JSONValue(parsing: try peer.raw.readMessage())
        #expect(welcome["ack"] == true, "\(welcome)")
        let session = try #require(harness.waitForSession(app: "acks"))

        // Sent back to back: all within the 50 ms between two acks, and nothing follows them.
        for seq in 1...40 { try peer.send(AppFrames.action(seq: seq)) }

        var acknowledged: Int64 = 0
        let deadline = Date(timeIntervalSinceNow: TestTime.seconds(5))
        while acknowledged < 40 && Date() < deadline {
            let message = try JSONValue(parsing: try peer.raw.readMessage())
            guard message["type"] == "ack", case .int(let seq)? = message["seq"] else {
                Issue.record("expected only acks, got \(message)")
                return
            }
            #expect(seq > acknowledged, "acks move forward: \(seq) after \(acknowledged)")
            acknowledged = seq
            // What the daemon acknowledged is committed: a daemon killed now would still have it.
            #expect(session.committedIndex >= seq, "ack \(seq) with only \(session.committedIndex) events committed")
        }
        #expect(acknowledged == 40, "the burst's end was acknowledged through \(acknowledged), not 40")
    }

    @Test("a dropped range is acknowledged: its actions are accounted for")
    func droppedRangeIsAcknowledged() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let peer = try DaemonPeer(port: harness.port)
        try peer.send(Self.helloReadingAcks())
        _ = try peer.raw.readMessage()
        try peer.send(#"{"type":"dropped","from":1,"to":30,"actionsLost":30}"#)
        var acknowledged: Int64 = 0
        let deadline = Date(timeIntervalSinceNow: TestTime.seconds(5))
        while acknowledged < 30 && Date() < deadline {
            let message = try JSONValue(parsing: try peer.raw.readMessage())
            if message["type"] == "ack", case .int(let seq)? = message["seq"] { acknowledged = seq }
        }
        #expect(acknowledged == 30)
    }
}

/// The app's side: an app that waits for its events to be delivered (`waitUntilDelivered`, the exit flush) waits
/// for the daemon's `ack`, not only for the bytes to leave its socket.
@Suite("Delivered means acknowledged")
struct DeliveredMeansAcknowledgedTests {
    /// The `welcome` of a daemon that acknowledges.
    private static let welcome = Array(#"{"type":"welcome","session":"s","protocol":1,"resumed":false,"ack":true}"#.utf8)

    /// A recorder of an `Int` state named `name`, streaming to the server on `port`.
    private func makeRecorder(_ name: String, port: Int,
                              _ configure: (inout InspectorConfiguration) -> Void = { _ in }) -> Recorder<Int, String> {
        var configuration = InspectorConfiguration()
        configuration.url = "ws://127.0.0.1:\(port)"
        configure(&configuration)
        let host = RecorderHost<Int, String>(executor: .queue(DispatchQueue(label: name)), currentState: { nil })
        return Recorder(name: name, initialState: 0, host: host, configuration: configuration)
    }

    /// Whether the daemon received a message containing `"seq":N` (on any connection, or on `connection`).
    private func received(seq: Int, by daemon: ServerEventRecorder, on connection: ConnectionID? = nil) -> Bool {
        let marker = #""seq":\#(seq)"#
        if let connection {
            return daemon.messages(from: connection).contains { String(decoding: $0, as: UTF8.self).contains(marker) }
        }
        return daemon.events.contains {
            if case .received(_, let bytes, _) = $0 { String(decoding: bytes, as: UTF8.self).contains(marker) } else { false }
        }
    }

    @Test("a recorder whose daemon acknowledges is delivered only once the daemon acknowledged its last event")
    func waitsForTheAck() throws {
        let daemon = ServerEventRecorder(greeting: Self.welcome)
        let (server, port) = try startServer(daemon)
        defer { server.stop() }
        let recorder = makeRecorder("acks", port: port)
        for count in 1...3 { recorder.record("add", state: count) }
        // hello, then the three actions (in one or more messages).
        #expect(daemon.wait { received(seq: 3, by: $0) })
        // Written out, not acknowledged: not delivered.
        #expect(!recorder.waitUntilDelivered(timeout: TestTime.seconds(0.5)))
        guard case .opened(let id, _, _, _)? = daemon.events.first else {
            Issue.record("no connection")
            return
        }
        _ = server.send(Array(#"{"type":"ack","seq":2}"#.utf8), to: id)
        #expect(!recorder.waitUntilDelivered(timeout: TestTime.seconds(0.5)))
        _ = server.send(Array(#"{"type":"ack","seq":3}"#.utf8), to: id)
        #expect(recorder.waitUntilDelivered(timeout: TestTime.seconds(5)))
    }

    @Test("waiting for one app's deliveries does not wait for another app whose daemon has not acknowledged")
    func waitForOneApp() throws {
        let silent = ServerEventRecorder(greeting: Self.welcome), answering = ServerEventRecorder(greeting: Self.welcome)
        let (silentServer, silentPort) = try startServer(silent)
        defer { silentServer.stop() }
        let (answeringServer, answeringPort) = try startServer(answering)
        defer { answeringServer.stop() }
        let unconfirmed = makeRecorder("unconfirmed-app", port: silentPort)
        let confirmed = makeRecorder("confirmed-app", port: answeringPort)
        unconfirmed.record("add", state: 1)
        confirmed.record("add", state: 1)
        #expect(answering.wait { received(seq: 1, by: $0) })
        guard case .opened(let id, _, _, _)? = answering.events.first else {
            Issue.record("no connection")
            return
        }
        _ = answeringServer.send(Array(#"{"type":"ack","seq":1}"#.utf8), to: id)
        #expect(Inspector.waitUntilDelivered(app: "confirmed-app", timeout: TestTime.seconds(5)))
        #expect(!Inspector.waitUntilDelivered(app: "unconfirmed-app", timeout: TestTime.seconds(0.3)))
        #expect(!Inspector.waitUntilDelivered(timeout: TestTime.seconds(0.3)), "all apps: one is not confirmed")
    }

    @Test("a recorder let go with events its daemon never confirmed is not waited for by the waits for every inspector")
    func stoppedRecorderIsNotWaitedFor() throws {
        let silent = ServerEventRecorder(greeting: Self.welcome)
        let (server, port) = try startServer(silent)
        defer { server.stop() }
        var recorder: Recorder<Int, String>? = makeRecorder("let-go-app", port: port)
        recorder?.record("add", state: 1)
        #expect(silent.wait { received(seq: 1, by: $0) })
        #expect(!Inspector.waitUntilDelivered(app: "let-go-app", timeout: TestTime.seconds(0.3)))
        recorder = nil   // stops its pipeline, which says on stderr what it could not deliver
        #expect(Inspector.waitUntilDelivered(app: "let-go-app", timeout: TestTime.seconds(5)),
                "a stopped inspector (it can deliver nothing more) is still waited for")
    }

    @Test("a daemon that stops acknowledging is taken for dead after the answer timeout: the app reconnects and sends again what was not confirmed", arguments: [true, false])
    func silentDaemonIsLeft(welcomes: Bool) throws {
        // A peer that accepts the connection and reads, then never answers again (or never even welcomes).
        let daemon = ServerEventRecorder(greeting: welcomes ? Self.welcome : nil)
        let (server, port) = try startServer(daemon)
        defer { server.stop() }
        let recorder = makeRecorder("silent", port: port) { $0.answerTimeoutSeconds = 1 }
        for count in 1...3 { recorder.record("add", state: count) }
        #expect(daemon.wait { received(seq: 3, by: $0) })
        // No answer for a second: the app leaves that connection and opens another, whose hello starts from the
        // last confirmed state (the initial one) and which carries the three actions again.
        #expect(daemon.wait(timeout: TestTime.seconds(10)) { recorder in
            recorder.openedConnections.count >= 2 && received(seq: 3, by: recorder, on: recorder.openedConnections[1])
        }, "the app stayed on a connection whose daemon never answered")
        let first = try #require(daemon.openedConnections.first)
        #expect(daemon.wait(timeout: TestTime.seconds(5)) { $0.hasClosed(first) }, "the silent connection was closed")
        let second = try #require(daemon.openedConnections.dropFirst().first)
        let hello = try JSONValue(parsing: try #require(daemon.messages(from: second).first))
        #expect(hello["type"] == "hello" && hello["seq"] == 0, "\(hello)")
        #expect(!recorder.waitUntilDelivered(timeout: TestTime.seconds(0.2)), "still nothing confirmed")
    }

    @Test("a daemon that keeps acknowledging keeps its connection, however long the app runs")
    func answeringDaemonIsKept() throws {
        let daemon = ServerEventRecorder(greeting: Self.welcome)
        let (server, port) = try startServer(daemon)
        defer { server.stop() }
        let recorder = makeRecorder("answering", port: port) { $0.answerTimeoutSeconds = TestTime.seconds(0.5) }
        // Two seconds of actions, each acknowledged a little after it arrives (within the timeout).
        for count in 1...10 {
            recorder.record("add", state: count)
            #expect(daemon.wait { received(seq: count, by: $0) })
            usleep(200_000)
            let id = try #require(daemon.openedConnections.first)
            _ = server.send(Array(#"{"type":"ack","seq":\#(count)}"#.utf8), to: id)
        }
        #expect(recorder.waitUntilDelivered(timeout: TestTime.seconds(5)))
        #expect(daemon.openedConnections.count == 1, "the app left a daemon that answered")
    }

    @Test("an app that exits before the daemon acknowledged its events says so, naming the last confirmed action")
    func exitWithUnacknowledgedEventsIsReported() throws {
        let daemon = ServerEventRecorder(greeting: Self.welcome)
        let (server, port) = try startServer(daemon)
        defer { server.stop() }
        let app = try ChildProcess(Executables.path("stress"),
                                   ["--duration", "0.5", "--rate", "100", "--deliver-timeout", "0.5"],
                                   environment: ["REWIND_URL": "ws://127.0.0.1:\(port)",
                                                 "REWIND_EXIT_FLUSH_SECONDS": "0.5"])
        _ = app.waitForExit(timeout: TestTime.seconds(20))
        let report = try JSONValue(parsing: try #require(app.stderrLines.last { $0.hasPrefix("{") }))
        #expect(report["delivered"] == false, "\(report)")
        #expect(app.stderrLines.contains { $0.contains("stops with events the daemon has not recorded") },
                "\(app.stderrLines.suffix(5))")
    }
}
