import Foundation
import RewindInspector

/// An `InspectorTransportDelegate` for tests: records what a transport reports and lets a test wait, with a
/// bounded timeout, until a condition on the record holds.
///
/// Threading: callbacks arrive on the transport's queue; tests read and wait from their own threads. All state is
/// behind `condition`.
final class TransportEvents: InspectorTransportDelegate, @unchecked Sendable {
    // @unchecked: every mutable member is read and written with `condition` locked.
    private let condition = NSCondition()
    private var connections = 0
    private var disconnections: [String] = []
    private var messages: [[UInt8]] = []

    /// Times a connect was reported.
    var connectCount: Int { locked { connections } }
    /// The reasons given with each disconnect, in order.
    var disconnectReasons: [String] { locked { disconnections } }
    /// The messages received, in order.
    var received: [[UInt8]] { locked { messages } }

    /// Waits until `predicate` holds or `seconds` (stretched by `REWIND_TEST_TIME_SCALE`) pass; returns whether
    /// it held.
    @discardableResult
    func wait(seconds: Double = 5, until predicate: (TransportEvents) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds * Self.timeScale)
        while !predicate(self) {
            if Date() >= deadline { return false }
            condition.lock()
            _ = condition.wait(until: min(deadline, Date(timeIntervalSinceNow: 0.05)))
            condition.unlock()
        }
        return true
    }

    /// How much slower than a plain debug build this run is (`make sanitize` sets it).
    static var timeScale: Double {
        ProcessInfo.processInfo.environment["REWIND_TEST_TIME_SCALE"].flatMap(Double.init) ?? 1
    }

    func transportDidConnect() {
        locked { connections += 1 }
    }

    func transportDidReceive(_ message: [UInt8]) {
        locked { messages.append(message) }
    }

    func transportDidDisconnect(reason: String) {
        locked { disconnections.append(reason) }
    }

    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return body()
    }
}
