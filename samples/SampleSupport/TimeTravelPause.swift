import Foundation

/// When the timeline last put a recorded state into this sample (a jump or a replay), so that `--demo` stops
/// dispatching while someone inspects that state instead of overwriting it at once (its next steps would also
/// fail against the screen the jump showed). Set by the inspector's `onTimeTravel`
/// (``SampleDescription/inspectorConfiguration()``), read by the demo loop.
///
/// Threading: any thread (a lock guards the time).
package final class TimeTravelPause: @unchecked Sendable {  // `lastTravel` guarded by `lock`
    /// The process's one instance: the inspector and the demo loop meet here.
    package static let shared = TimeTravelPause()

    /// How long the demo stays paused after the last time travel, seconds.
    package let quietSeconds: Double

    private let lock = NSLock()
    private var lastTravel: Double?

    /// A pause lasting `quietSeconds` after each time travel.
    package init(quietSeconds: Double = 20) {
        self.quietSeconds = quietSeconds
    }

    /// Notes a time travel now. Any thread.
    package func travelled() {
        let now = ProcessInfo.processInfo.systemUptime
        lock.withLock { lastTravel = now }
    }

    /// The seconds left before the demo may go on (0 when no time travel is recent).
    package var remaining: Double {
        let now = ProcessInfo.processInfo.systemUptime
        return lock.withLock { lastTravel.map { max(0, $0 + quietSeconds - now) } ?? 0 }
    }
}
