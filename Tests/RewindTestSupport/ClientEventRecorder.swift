import Foundation
import RewindInspector
import RewindWebSocket

/// A `WebSocketClientDelegate` (and `InspectorTransportDelegate`, for the inspector's adapter) for tests:
/// records what the client reports, runs optional hooks, and lets a test wait (with a timeout) until a
/// condition on the record holds.
///
/// Threading: callbacks arrive on the client's service thread; tests read and wait from their own
/// threads. All state is behind `condition`.
package final class ClientEventRecorder: WebSocketClientDelegate, InspectorTransportDelegate, @unchecked Sendable {
    // @unchecked: every mutable member is read and written with `condition` locked.

    private let condition = NSCondition()
    private var connections = 0
    private var disconnections: [String] = []
    private var messages: [[UInt8]] = []
    private var messageCount = 0
    private var keepsMessages: Bool
    private var connectHook: (@Sendable () -> Void)?
    private var disconnectHook: (@Sendable (String) -> Void)?

    /// - Parameter keepMessages: record received messages; false only counts them.
    package init(keepMessages: Bool = true) {
        keepsMessages = keepMessages
    }

    /// Times a connect was reported.
    package var connectCount: Int { locked { connections } }
    /// The reasons given with each disconnect, in order.
    package var disconnectReasons: [String] { locked { disconnections } }
    /// The messages received, in order (when kept).
    package var received: [[UInt8]] { locked { messages } }
    /// Messages received so far.
    package var receivedCount: Int { locked { messageCount } }

    /// Runs `hook` (on the service thread) at every connect.
    package func onConnect(_ hook: @escaping @Sendable () -> Void) { locked { connectHook = hook } }
    /// Runs `hook` (on the service thread) at every disconnect.
    package func onDisconnect(_ hook: @escaping @Sendable (String) -> Void) { locked { disconnectHook = hook } }

    /// Waits until `predicate` holds (checked after every event) or `timeout` passes; returns whether it held.
    @discardableResult
    package func wait(timeout: Double = 10, until predicate: (ClientEventRecorder) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: TestTime.seconds(timeout))
        while true {
            if predicate(self) { return true }
            condition.lock()
            let signalled = condition.wait(until: min(deadline, Date(timeIntervalSinceNow: 0.05)))
            condition.unlock()
            if !signalled && Date() >= deadline { return predicate(self) }
        }
    }

    /// Records a connect (on the client's service thread) and runs the connect hook.
    package func webSocketDidConnect() {
        let hook = locked { () -> (@Sendable () -> Void)? in
            connections += 1
            return connectHook
        }
        condition.broadcast()
        hook?()
    }

    /// Records a received message (on the client's service thread).
    package func webSocketDidReceive(_ message: [UInt8]) {
        locked {
            messageCount += 1
            if keepsMessages { messages.append(message) }
        }
        condition.broadcast()
    }

    /// Records a disconnect and its reason (on the client's service thread) and runs the disconnect hook.
    package func webSocketDidDisconnect(reason: String) {
        let hook = locked { () -> (@Sendable (String) -> Void)? in
            disconnections.append(reason)
            return disconnectHook
        }
        condition.broadcast()
        hook?(reason)
    }

    /// The inspector transport's connect: recorded as ``webSocketDidConnect()``.
    package func transportDidConnect() { webSocketDidConnect() }
    /// The inspector transport's message: recorded as ``webSocketDidReceive(_:)``.
    package func transportDidReceive(_ message: [UInt8]) { webSocketDidReceive(message) }
    /// The inspector transport's disconnect: recorded as ``webSocketDidDisconnect(reason:)``.
    package func transportDidDisconnect(reason: String) { webSocketDidDisconnect(reason: reason) }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }
}
