import Foundation
import RewindWebSocket

/// A `WebSocketServerDelegate` for tests: records what the server reports, optionally echoes messages
/// back or refuses connections, and lets a test wait (with a timeout) until a condition on the record
/// holds.
///
/// Threading: callbacks arrive on the server's service thread; tests read and wait from their own
/// threads. All state is behind `condition`.
package final class ServerEventRecorder: WebSocketServerDelegate, @unchecked Sendable {
    // @unchecked: every mutable member is read and written with `condition` locked.

    /// One thing the server reported.
    package enum Event: Equatable {
        case opened(ConnectionID, subprotocol: String, origin: String?, peer: String)
        case received(ConnectionID, [UInt8], isBinary: Bool)
        case closed(ConnectionID, code: UInt16?)
    }

    private let condition = NSCondition()
    private var recorded: [Event] = []
    private var messageCount = 0
    private var byteCount = 0
    private var acceptsConnections = true
    private var echoes = false
    private var keepsMessages = true
    private let greeting: [UInt8]?
    private var gateClosed = false
    private var blockedInCallback = false

    /// - Parameters:
    ///   - echo: send every received message back to its connection.
    ///   - keepMessages: record received messages; false only counts them (for throughput tests).
    ///   - greeting: a message sent to every connection from `didOpen`.
    package init(echo: Bool = false, keepMessages: Bool = true, greeting: [UInt8]? = nil) {
        echoes = echo
        keepsMessages = keepMessages
        self.greeting = greeting
    }

    /// Makes the next `didReceive` block the server's service thread until `openGate()`.
    package func closeGate() { locked { gateClosed = true } }

    /// Lets a blocked `didReceive` return.
    package func openGate() {
        locked { gateClosed = false }
        condition.broadcast()
    }

    /// Whether a `didReceive` is blocked at the gate.
    package var isBlocked: Bool { locked { blockedInCallback } }

    /// Whether `didOpen` accepts new connections.
    package var accepts: Bool {
        get { locked { acceptsConnections } }
        set { locked { acceptsConnections = newValue } }
    }

    /// Everything recorded so far.
    package var events: [Event] { locked { recorded } }

    /// Messages received so far (counted even when not kept).
    package var receivedCount: Int { locked { messageCount } }

    /// Payload bytes received so far.
    package var receivedBytes: Int { locked { byteCount } }

    /// The connections opened so far, in order.
    package var openedConnections: [ConnectionID] {
        locked { recorded.compactMap { if case .opened(let id, _, _, _) = $0 { id } else { nil } } }
    }

    /// Whether `didClose` was reported for a connection.
    package func hasClosed(_ id: ConnectionID) -> Bool {
        locked { recorded.contains { if case .closed(id, _) = $0 { true } else { false } } }
    }

    /// Whether `didClose` was reported for any connection.
    package var anyClosed: Bool {
        locked { recorded.contains { if case .closed = $0 { true } else { false } } }
    }

    /// The close code reported for a connection (nil if it has not closed or closed without a code).
    package func closeCode(of id: ConnectionID) -> UInt16? {
        locked {
            for event in recorded { if case .closed(id, let code) = event { return code } }
            return nil
        }
    }

    /// The messages received from a connection, in order.
    package func messages(from id: ConnectionID) -> [[UInt8]] {
        locked { recorded.compactMap { if case .received(id, let bytes, _) = $0 { bytes } else { nil } } }
    }

    /// Waits until `predicate` holds for the recorder (checked after every event) or `timeout` passes;
    /// returns whether it held.
    @discardableResult
    package func wait(timeout: Double = 10, until predicate: (ServerEventRecorder) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: TestTime.seconds(timeout))
        while true {
            if predicate(self) { return true }
            condition.lock()
            let signalled = condition.wait(until: min(deadline, Date(timeIntervalSinceNow: 0.05)))
            condition.unlock()
            if !signalled && Date() >= deadline { return predicate(self) }
        }
    }

    /// Records the opening (on the server's service thread), sends the greeting, and accepts it unless refused.
    package func server(_ server: WebSocketServer, didOpen id: ConnectionID, subprotocol: String, origin: String?,
                peer: String) -> Bool {
        record(.opened(id, subprotocol: subprotocol, origin: origin, peer: peer))
        if let greeting { _ = server.send(greeting, to: id) }
        return locked { acceptsConnections }
    }

    /// Records the message (on the server's service thread), echoes it when asked, and waits while the gate is
    /// closed.
    package func server(_ server: WebSocketServer, didReceive message: [UInt8], isBinary: Bool, from id: ConnectionID) {
        let echo = locked { () -> Bool in
            messageCount += 1
            byteCount += message.count
            if keepsMessages { recorded.append(.received(id, message, isBinary: isBinary)) }
            return echoes
        }
        condition.broadcast()
        if echo { _ = server.send(message, to: id) }
        condition.lock()
        while gateClosed {
            blockedInCallback = true
            condition.broadcast()
            condition.wait()
        }
        blockedInCallback = false
        condition.unlock()
    }

    /// Records the close and its code (on the server's service thread).
    package func server(_ server: WebSocketServer, didClose id: ConnectionID, code: UInt16?) {
        record(.closed(id, code: code))
    }

    private func record(_ event: Event) {
        locked { recorded.append(event) }
        condition.broadcast()
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }
}

/// Starts a `WebSocketServer` on a port the system picks on 127.0.0.1, offering `rewind.v1` and `rewind.control.v1`,
/// with `recorder` as its delegate; `configure` changes the configuration first. Returns the server and its port; the
/// caller stops it. Threading: any thread.
package func startServer(_ recorder: ServerEventRecorder,
                        _ configure: (inout WebSocketServerConfiguration) -> Void = { _ in })
    throws -> (WebSocketServer, Int) {
    var configuration = WebSocketServerConfiguration(port: 0, subprotocols: ["rewind.v1", "rewind.control.v1"])
    configure(&configuration)
    let server = WebSocketServer(configuration: configuration, delegate: recorder)
    let port = try server.start()
    return (server, port)
}
