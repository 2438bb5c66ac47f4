import Foundation
import RewindInspector

/// The inspector's libwebsockets transport, counting what the inspector sends: messages and their payload bytes
/// (WebSocket framing adds 6–14 bytes per frame on top, negligible per action in batches).
///
/// Threading: like any `InspectorTransport`, every method from any thread; the counters are guarded by `lock`
/// (why `@unchecked Sendable` is safe).
final class CountingTransport: InspectorTransport, @unchecked Sendable {
    private let inner = LibWebSocketsTransport()
    private let lock = NSLock()
    private var bytes = 0
    private var messages = 0

    func connect(to url: InspectorURL, subprotocol: String, delegate: any InspectorTransportDelegate) {
        inner.connect(to: url, subprotocol: subprotocol, delegate: delegate)
    }

    func send(_ message: [UInt8]) -> Bool {
        let accepted = inner.send(message)
        if accepted {
            lock.lock()
            bytes += message.count
            messages += 1
            lock.unlock()
        }
        return accepted
    }

    var queuedBytes: Int { inner.queuedBytes }

    func disconnect() {
        inner.disconnect()
    }

    /// Payload bytes and messages sent since the last ``reset()``.
    var counts: (bytes: Int, messages: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (bytes, messages)
    }

    /// Zeroes the counters.
    func reset() {
        lock.lock()
        bytes = 0
        messages = 0
        lock.unlock()
    }
}
