import Foundation
import RewindTestSupport
import RewindWebSocket
import Testing

/// Measures how fast the server takes in messages from one client, and prints the figures. The
/// assertions check that everything arrived; the rates are reported, not asserted (CI machines vary).
@Suite("Transport throughput", .serialized)
struct TransportThroughputTests {
    /// A text frame of exactly `size` bytes that looks like a batch of ~200-byte events, and how many
    /// events it holds.
    /// Below ~250 bytes the frame is a single small `action` message, padded.
    static func batchFrame(size: Int) -> (bytes: [UInt8], events: Int) {
        if size < 250 {
            var text = #"{"type":"action","seq":1,"time":1700000000.25,"action":{"type":"counter/increment"},"patch":[{"op":"replace","path":"/count","value":2}]"#
            text += String(repeating: " ", count: max(0, size - text.utf8.count - 1)) + "}"
            return (Array(text.utf8), 1)
        }
        let event = #"{"seq":1,"time":1700000000.25,"action":{"type":"todo/add","payload":{"id":"3F2504E0-4F89-11D3-9A0C-0305E82C3301","title":"Buy milk","done":false}},"patch":[{"op":"add","path":"/todos/-","value":"x"}]}"#
        var text = #"{"type":"batch","events":["# + event
        var events = 1
        while text.utf8.count + event.utf8.count + 3 <= size {
            text += "," + event
            events += 1
        }
        text += "]"
        text += String(repeating: " ", count: max(0, size - text.utf8.count - 1)) + "}"
        return (Array(text.utf8), events)
    }

    static func report(_ label: String, messages: Int, bytes: Int, seconds: Double, eventsPerMessage: Int) {
        let rate = Double(messages) / seconds
        let megabytes = Double(bytes) / seconds / 1_000_000
        print(String(format: "[throughput] %@: %d messages in %.3f s = %.0f messages/s, %.1f MB/s, ≈ %.0f events/s",
                     label, messages, seconds, rate, megabytes, rate * Double(eventsPerMessage)))
    }

    @Test("through WebSocketClient, ~20 KB and 200-byte frames",
          arguments: [(20_000, 1_500), (200, 30_000)])
    func viaTransport(frameSize: Int, count: Int) throws {
        let server = ServerEventRecorder(keepMessages: false)
        let (webSocketServer, port) = try startServer(server)
        defer { webSocketServer.stop() }
        let client = ClientEventRecorder()
        let transport = connectedTransport(port: port, recorder: client)
        defer { transport.disconnect() }
        let (frame, eventsPerMessage) = Self.batchFrame(size: frameSize)
        let started = Date()
        for _ in 0..<count {
            while !transport.send(frame) { usleep(50) }
        }
        #expect(server.wait(timeout: 60) { $0.receivedCount == count })
        let seconds = Date().timeIntervalSince(started)
        #expect(server.receivedBytes == count * frame.count)
        Self.report("WebSocketClient → WebSocketServer, \(frame.count)-byte frames", messages: count,
                    bytes: count * frame.count, seconds: seconds, eventsPerMessage: eventsPerMessage)
    }

    @Test("from a raw socket writing pre-encoded frames (the server alone), ~20 KB and 200-byte frames",
          arguments: [(20_000, 1_500), (200, 30_000)])
    func rawIngest(frameSize: Int, count: Int) throws {
        let server = ServerEventRecorder(keepMessages: false)
        let (webSocketServer, port) = try startServer(server)
        defer { webSocketServer.stop() }
        let client = try RawWebSocketClient(port: port, timeout: TestTime.seconds(30))
        try client.handshake()
        let (frame, eventsPerMessage) = Self.batchFrame(size: frameSize)
        let encoded = RawWebSocketClient.frame(opcode: RawWebSocketClient.Opcode.text, payload: frame)
        var stream: [UInt8] = []
        stream.reserveCapacity(encoded.count * count)
        for _ in 0..<count { stream += encoded }
        let started = Date()
        try client.sendRaw(stream)
        #expect(server.wait(timeout: 60) { $0.receivedCount == count })
        let seconds = Date().timeIntervalSince(started)
        #expect(server.receivedBytes == count * frame.count)
        Self.report("raw socket → WebSocketServer, \(frame.count)-byte frames", messages: count,
                    bytes: count * frame.count, seconds: seconds, eventsPerMessage: eventsPerMessage)
    }
}
