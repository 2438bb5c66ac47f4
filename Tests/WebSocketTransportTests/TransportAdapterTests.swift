import Foundation
import RewindInspector
import RewindTestSupport
import RewindWebSocket
import Testing

#if os(Linux) // LibWebSocketsTransport exists where libwebsockets is the inspector's transport
/// The inspector's seam over the shared client: `LibWebSocketsTransport` and `InspectorURL` behave as
/// `WebSocketClient` and `WebSocketURL` do (their full behaviour is specified in TransportClientTests).
@Suite("LibWebSocketsTransport (the inspector's adapter)")
struct TransportAdapterTests {
    @Test("connects, sends, receives, and disconnects with 1000 without reporting it")
    func roundTrip() throws {
        let server = ServerEventRecorder(echo: true)
        let (webSocketServer, port) = try startServer(server)
        defer { webSocketServer.stop() }
        let client = ClientEventRecorder()
        let transport: any InspectorTransport = LibWebSocketsTransport()
        #expect(!transport.send([1]))
        transport.connect(to: InspectorURL(host: "127.0.0.1", port: port), subprotocol: "rewind.v1", delegate: client)
        #expect(client.wait { $0.connectCount == 1 })
        #expect(transport.send(Array("hello".utf8)))
        #expect(client.wait { $0.received == [Array("hello".utf8)] })
        let id = try #require(server.openedConnections.first)
        transport.disconnect()
        #expect(server.wait { $0.hasClosed(id) })
        #expect(server.closeCode(of: id) == 1000)
        #expect(client.disconnectReasons.isEmpty)
        #expect(transport.queuedBytes == 0)
    }

    @Test("a close from the server is reported with its code and reason")
    func serverCloses() throws {
        let server = ServerEventRecorder()
        let (webSocketServer, port) = try startServer(server)
        defer { webSocketServer.stop() }
        let client = ClientEventRecorder()
        let transport = LibWebSocketsTransport()
        defer { transport.disconnect() }
        transport.connect(to: InspectorURL(host: "127.0.0.1", port: port), subprotocol: "rewind.v1", delegate: client)
        #expect(server.wait { $0.openedConnections.count == 1 })
        let id = try #require(server.openedConnections.first)
        webSocketServer.close(id, code: WebSocketCloseCode.policyViolation, reason: "unauthorized")
        #expect(client.wait { $0.disconnectReasons.count == 1 })
        #expect(client.disconnectReasons.first?.contains("1008: unauthorized") == true, "\(client.disconnectReasons)")
    }

    @Test("a failed connect is reported")
    func failedConnect() {
        let client = ClientEventRecorder()
        let transport = LibWebSocketsTransport(connectTimeoutSeconds: 1)
        defer { transport.disconnect() }
        transport.connect(to: InspectorURL(host: "127.0.0.1", port: FreePort.unused()), subprotocol: "rewind.v1",
                          delegate: client)
        #expect(client.wait { $0.disconnectReasons.count == 1 })
        #expect(client.connectCount == 0)
    }
}

#endif

@Suite("InspectorURL")
struct InspectorURLTests {
    @Test("parses host, port and path of a ws URL")
    func parses() {
        #expect(InspectorURL(string: "ws://127.0.0.1:7723") == InspectorURL(host: "127.0.0.1", port: 7723, path: "/"))
        #expect(InspectorURL(string: "ws://example.com/path?x=1") == InspectorURL(host: "example.com", port: 80,
                                                                                  path: "/path?x=1"))
        #expect(InspectorURL(string: "WS://[::1]:9000/a") == InspectorURL(host: "::1", port: 9000, path: "/a"))
    }

    @Test("refuses what the transport cannot connect to")
    func refuses() {
        #expect(InspectorURL(string: "wss://127.0.0.1:7723") == nil)
        #expect(InspectorURL(string: "http://127.0.0.1") == nil)
        #expect(InspectorURL(string: "ws://127.0.0.1:0") == nil)
        #expect(InspectorURL(string: "ws://[::1") == nil)
    }

    @Test("prints back as a ws URL, its path starting with /")
    func prints() {
        #expect(InspectorURL(host: "::1", port: 7723).description == "ws://[::1]:7723/")
        #expect(InspectorURL(host: "127.0.0.1", port: 7723, path: "x").description == "ws://127.0.0.1:7723/x")
        #expect(InspectorURL(host: "127.0.0.1", port: 7723, path: "x").path == "/x")
    }
}
