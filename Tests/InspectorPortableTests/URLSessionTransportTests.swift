import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import RewindInspector
import Testing

/// The URLSession transport, built here without libwebsockets (`make portable-check` builds this target in the
/// configuration an Apple app gets). What needs a daemon is in EndToEndTests' URLSessionTransportDaemonTests.
@Suite("URLSessionTransport without a daemon")
struct URLSessionTransportTests {
    @Test("the handshake goes to the daemon's address, asks for the subprotocol, and carries no Origin header")
    func handshakeRequest() throws {
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let task = try #require(URLSessionTransport.handshakeTask(
            in: session, to: InspectorURL(host: "::1", port: 7723, path: "/app"), subprotocol: "rewind.v1"))
        defer { task.cancel() }
        let request = try #require(task.originalRequest)
        #expect(request.url?.absoluteString == "ws://[::1]:7723/app")
        #expect(request.value(forHTTPHeaderField: "Origin") == nil)
        #expect(request.allHTTPHeaderFields?.keys.contains { $0.lowercased() == "origin" } != true)
        #if !canImport(Darwin)
        // FoundationNetworking puts the negotiation header in the request; Apple's adds it when it sends.
        #expect(request.value(forHTTPHeaderField: "Sec-WebSocket-Protocol") == "rewind.v1")
        #endif
    }

    @Test("before a connection, send refuses and nothing is queued")
    func notConnected() {
        let transport = URLSessionTransport()
        #expect(!transport.send(Array("hello".utf8)))
        #expect(transport.queuedBytes == 0)
        transport.disconnect()
        transport.disconnect()
    }

    /// On Linux, FoundationNetworking runs WebSockets on libcurl, which Debian 12 and Ubuntu 24.04 build without
    /// them: the connect must fail at once with the clear reason (and never wait for the connect timer). With a
    /// libcurl (or Apple's Foundation) that has them, nothing listening on the port is reported just as fast.
    @Test("a connect that cannot succeed is reported at once, with a reason that says why")
    func failsFastAndClearly() throws {
        let events = TransportEvents()
        let transport = URLSessionTransport(connectTimeoutSeconds: 5)
        defer { transport.disconnect() }
        let started = Date()
        transport.connect(to: InspectorURL(host: "127.0.0.1", port: try Self.refusedPort()), subprotocol: "rewind.v1",
                          delegate: events)
        #expect(events.wait(seconds: 3) { $0.disconnectReasons.count == 1 })
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed < 3 * TransportEvents.timeScale, "reported after \(elapsed) s")
        let reason = try #require(events.disconnectReasons.first)
        if reason == URLSessionTransport.unsupportedReason {
            #expect(reason.contains("libcurl without WebSocket support"))
            #expect(reason.contains("use the libwebsockets transport"))
        } else {
            #expect(reason.localizedCaseInsensitiveContains("connect"), "\(reason)")
        }
        #if os(Linux)
        // This machine's Foundation: record which case it is, so a change of libcurl shows in the test log.
        print("URLSessionTransport on this Linux: \(reason)")
        #endif
        #expect(events.connectCount == 0)
        #expect(!transport.send([1]))
        #expect(transport.queuedBytes == 0)
    }

    /// Whether this Foundation opens WebSockets at all (Apple's does; Linux's only over a libcurl built with them).
    /// The tests below need a connection attempt that stays pending, which a Foundation without WebSockets never
    /// makes (it fails at once): they run on Apple platforms and skip here, saying so.
    static let foundationHasWebSockets: Bool = {
        let events = TransportEvents()
        let transport = URLSessionTransport()
        defer { transport.disconnect() }
        guard let port = try? refusedPort() else { return true }
        transport.connect(to: InspectorURL(host: "127.0.0.1", port: port), subprotocol: "rewind.v1", delegate: events)
        events.wait(seconds: 3) { !$0.disconnectReasons.isEmpty }
        return events.disconnectReasons.first != URLSessionTransport.unsupportedReason
    }()

    @Test("a connect abandoned by disconnect is never reported", .enabled(if: foundationHasWebSockets))
    func disconnectSilences() throws {
        let listener = try SilentListener()
        let events = TransportEvents()
        let transport = URLSessionTransport()
        transport.connect(to: InspectorURL(host: "127.0.0.1", port: listener.port), subprotocol: "rewind.v1",
                          delegate: events)
        transport.disconnect()
        #expect(!events.wait(seconds: 0.5) { !$0.disconnectReasons.isEmpty })
        #expect(events.connectCount == 0)
    }

    @Test("a second connect replaces the first, which is not reported", .enabled(if: foundationHasWebSockets))
    func reconnectReplaces() throws {
        let listener = try SilentListener()
        let events = [TransportEvents(), TransportEvents()]
        let transport = URLSessionTransport(connectTimeoutSeconds: 1)
        defer { transport.disconnect() }
        let url = InspectorURL(host: "127.0.0.1", port: listener.port)
        transport.connect(to: url, subprotocol: "rewind.v1", delegate: events[0])
        transport.connect(to: url, subprotocol: "rewind.v1", delegate: events[1])
        #expect(events[1].wait(seconds: 3) { $0.disconnectReasons.count == 1 })
        #expect(events[0].disconnectReasons.isEmpty)
    }

    @Test("a handshake that never comes is abandoned at the connect timeout", .enabled(if: foundationHasWebSockets))
    func connectTimeout() throws {
        let listener = try SilentListener()
        let events = TransportEvents()
        let transport = URLSessionTransport(connectTimeoutSeconds: 1)
        defer { transport.disconnect() }
        transport.connect(to: InspectorURL(host: "127.0.0.1", port: listener.port), subprotocol: "rewind.v1",
                          delegate: events)
        #expect(events.wait(seconds: 4) { $0.disconnectReasons.count == 1 })
        #expect(events.disconnectReasons.first?.contains("no WebSocket handshake") == true, "\(events.disconnectReasons)")
    }

    /// A loopback port where nothing listens: bound by the system, then closed.
    static func refusedPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        defer { _ = close(fd) }
        return try bindLoopback(fd)
    }

    /// Binds `fd` to a loopback port the system picks; returns the port.
    static func bindLoopback(_ fd: Int32) throws -> Int {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 ? getsockname(fd, $0, &length) : -1
            }
        }
        try #require(named == 0)
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// A loopback TCP socket that listens and never answers: the kernel completes TCP connections to it, so a
/// WebSocket handshake sent there waits for ever. Closed on release.
///
/// Threading: immutable; usable from any thread.
final class SilentListener: Sendable {
    let port: Int
    private let fd: Int32

    init() throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        port = try URLSessionTransportTests.bindLoopback(fd)
        try #require(listen(fd, 8) == 0)
    }

    deinit {
        _ = close(fd)
    }
}
