import Foundation
import RewindDaemon
import RewindSessionFile
import RewindWire

/// A command's completion handed from the daemon's threads to the test.
///
/// Threading: ``set(_:)`` from any thread (the daemon's), ``wait(timeout:)`` from the test's.
package final class CommandOutcome: @unchecked Sendable {  // guarded by `condition`
    private let condition = NSCondition()
    private var value: Result<CommandResult, DaemonError>?

    /// An outcome not set yet.
    package init() {}

    /// Sets the completion (from any thread) and wakes the waiting test.
    package func set(_ result: Result<CommandResult, DaemonError>) {
        condition.withLock {
            value = result
            condition.broadcast()
        }
    }

    /// The completion, or nil when none came within `timeout` seconds (stretched by `TestTime.scale`).
    package func wait(timeout: Double = 10) -> Result<CommandResult, DaemonError>? {
        let deadline = Date(timeIntervalSinceNow: TestTime.seconds(timeout))
        condition.lock()
        defer { condition.unlock() }
        while value == nil, condition.wait(until: deadline) {}
        return value
    }
}

extension Result {
    /// Whether this is a `.success`.
    package var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
