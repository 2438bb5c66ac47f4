import Foundation
import Rewind
import RewindInspector
import RewindTestSupport
import RewindWebSocket
import RewindWire
import Testing

/// The URLSession transport against the real daemon. Where Foundation has WebSockets (Apple platforms, a Linux
/// whose libcurl has them) it connects with `rewind.v1` and no `Origin` (the daemon refuses browser origins),
/// and the daemon answers a `hello`. Where it has not (Debian 12's libcurl, on CI), the connect fails at once
/// with the clear reason, never a hang.
@Suite("URLSessionTransport against the daemon")
struct URLSessionTransportDaemonTests {
    @Test("connects and is welcomed, or fails at once saying that URLSession has no WebSockets here")
    func connectsOrFailsClearly() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let events = ClientEventRecorder()
        let transport = URLSessionTransport(connectTimeoutSeconds: Int(TestTime.seconds(5)))
        defer { transport.disconnect() }
        let started = Date()
        transport.connect(to: try #require(InspectorURL(string: harness.url)), subprotocol: WireProtocol.appSubprotocol,
                          delegate: events)
        #expect(events.wait(timeout: 4) { $0.connectCount == 1 || !$0.disconnectReasons.isEmpty })
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed < TestTime.seconds(4), "took \(elapsed) s")
        if events.connectCount == 1 {
            let hello = WireCodec.encode(.hello(Hello(
                app: AppIdentity(name: "urlsession", instance: Inspector.processInstance), state: .object([:]),
                stateType: "State")))
            #expect(transport.send(hello))
            #expect(events.wait { $0.received.contains { String(decoding: $0, as: UTF8.self).contains("welcome") } })
            #expect(harness.waitForSession(app: "urlsession", timeout: 5) != nil)
            #expect(events.wait { _ in transport.queuedBytes == 0 })
        } else {
            #expect(events.disconnectReasons == [URLSessionTransport.unsupportedReason])
        }
        #if os(Linux)
        print("URLSessionTransport against the daemon on this Linux: connected=\(events.connectCount == 1) "
            + "\(events.disconnectReasons) after \(elapsed) s")
        #endif
    }
}

/// A store instrumented over the URLSession transport: recorded where Foundation has WebSockets; where it has not,
/// the app runs as without the inspector (its dispatches are neither slowed nor blocked by the failing connects).
@Suite("Inspector over URLSessionTransport")
@MainActor
struct InspectorOverURLSessionTests {
    @Test("the app dispatches as usual; the session is recorded where URLSession has WebSockets")
    func storeKeepsRunning() async throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        var configuration = InspectorConfiguration()
        configuration.url = harness.url
        let store = Store(
            initialState: 0, reducer: Reducer<Int, Int> { state, action in
                state += action
                return .none
            },
            middleware: [Inspector.middleware(name: "urlsession-store", configuration: configuration,
                                              transport: URLSessionTransport())])
        let started = Date()
        for _ in 0..<1_000 { store.dispatch(1) }
        let elapsed = Date().timeIntervalSince(started)
        #expect(store.state == 1_000)
        #expect(elapsed < TestTime.seconds(2), "1,000 dispatches took \(elapsed) s")
        let probe = ClientEventRecorder()
        let transport = URLSessionTransport()
        defer { transport.disconnect() }
        transport.connect(to: try #require(InspectorURL(string: harness.url)), subprotocol: WireProtocol.appSubprotocol,
                          delegate: probe)
        #expect(probe.wait(timeout: 4) { $0.connectCount == 1 || !$0.disconnectReasons.isEmpty })
        if probe.connectCount == 1 {
            #expect(harness.waitForSession(events: 1_000, app: "urlsession-store") != nil)
        } else {
            #expect(harness.daemon.sessions.isEmpty)
        }
    }
}

/// `InspectorURL` parses and prints exactly as `WebSocketURL` does: it has its own copy of the parser so that the
/// inspector builds without libwebsockets.
@Suite("InspectorURL agrees with WebSocketURL")
struct InspectorURLParityTests {
    @Test("the same inputs give the same addresses, refusals and descriptions")
    func parity() {
        let inputs = [
            "ws://127.0.0.1:7723", "ws://example.com/path?x=1", "WS://[::1]:9000/a", "ws://h?q", "ws://h:80/",
            "wss://127.0.0.1:7723", "http://127.0.0.1", "ws://127.0.0.1:0", "ws://127.0.0.1:99999", "ws://:7723",
            "ws://[::1", "ws://[::1]x", "ws://user@host:1", "ws://host:abc", "ws://localhost:7723/a/b",
        ]
        for input in inputs {
            let ours = InspectorURL(string: input)
            let theirs = WebSocketURL(string: input)
            #expect(ours?.host == theirs?.host, "\(input)")
            #expect(ours?.port == theirs?.port, "\(input)")
            #expect(ours?.path == theirs?.path, "\(input)")
            #expect(ours?.description == theirs?.description, "\(input)")
        }
        #expect(InspectorURL(host: "h", port: 1, path: "x").description
            == WebSocketURL(host: "h", port: 1, path: "x").description)
    }
}
