import Foundation
import RewindInspector

/// An `InspectorTransport` that writes each message to its socket before `send` returns, so `queuedBytes` is always
/// 0 — what the protocol's contract allows a transport to do, and the fastest a transport can hand a message on: it
/// leaves the pipeline no time between sending a batch and its next step. Built on the tests' raw WebSocket client;
/// one thread reads the daemon's messages and hands them to the delegate.
///
/// Threading: any thread (sends are serialized by a lock); delegate methods arrive on the reading thread, which alone
/// closes the socket.
package final class WriteThroughTransport: InspectorTransport, @unchecked Sendable {  // mutable state guarded by `lock`
    private let lock = NSLock()
    private var client: RawWebSocketClient?
    private var stopped = false

    /// A transport that has not connected yet.
    package init() {}

    /// Starts the thread that connects to `url` and reads; reports to `delegate` on it.
    package func connect(to url: InspectorURL, subprotocol: String, delegate: any InspectorTransportDelegate) {
        let thread = Thread { [self] in
            let client: RawWebSocketClient
            do {
                client = try RawWebSocketClient(port: url.port, timeout: TestTime.seconds(1))
                let response = try client.handshake(path: url.path, subprotocols: [subprotocol])
                guard response.status == 101 else {
                    delegate.transportDidDisconnect(reason: "handshake answered \(response.status)")
                    return
                }
            } catch {
                delegate.transportDidDisconnect(reason: "cannot connect: \(error)")
                return
            }
            lock.withLock { self.client = client }
            delegate.transportDidConnect()
            while !lock.withLock({ stopped }) {
                do {
                    delegate.transportDidReceive(try client.readMessage())
                } catch RawWebSocketClient.Failure.timedOut {
                    continue
                } catch {
                    let wanted = lock.withLock { stopped }
                    lock.withLock { self.client = nil }
                    client.drop()
                    if !wanted { delegate.transportDidDisconnect(reason: "\(error)") }
                    return
                }
            }
            client.drop()
        }
        thread.start()
    }

    /// Writes `message` to the socket before returning; false when not connected or the write failed.
    package func send(_ message: [UInt8]) -> Bool {
        lock.withLock {
            guard let client else { return false }
            do {
                try client.sendText(message)
                return true
            } catch {
                return false
            }
        }
    }

    /// Always 0: nothing waits in this transport.
    package var queuedBytes: Int { 0 }

    /// Stops: shuts the socket down; the reading thread closes it and reports the disconnect.
    package func disconnect() {
        lock.withLock {
            stopped = true
            // Only shut down: the reading thread may be inside a read of this descriptor; it closes it on its way out.
            client?.shutDown()
            client = nil
        }
    }
}
