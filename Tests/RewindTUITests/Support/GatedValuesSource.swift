import Foundation
import RewindSessionFile
import RewindTestSupport
import RewindTUI
import RewindWire

/// A data source whose `values` (the pinned watches' and the value plot's reads) wait until `open()` (at most 30 s,
/// so that a failing test cannot hang), so that tests see what the screen does while those reads run off the UI
/// thread. Everything else is forwarded unchanged. Threading: any thread; `gate` and the counter are
/// thread-safe.
final class GatedValuesSource: TimelineDataSource, @unchecked Sendable {  // immutable but for `lock`-guarded `started`
    private let wrapped: any TimelineDataSource
    private let gate = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var startedCount = 0

    init(_ wrapped: any TimelineDataSource) {
        self.wrapped = wrapped
    }

    /// Lets every waiting read (and every later one) go on.
    func open() {
        for _ in 0..<64 { gate.signal() }
    }

    /// How many reads have started waiting.
    var started: Int { lock.withLock { startedCount } }

    // Forwarded unchanged.
    var changeCounter: UInt64 { wrapped.changeCounter }
    func header() -> TimelineHeader { wrapped.header() }
    func sessions() -> [TimelineSession] { wrapped.sessions() }
    func events(session: String, range: ClosedRange<Int>) throws -> [TimelineEvent] {
        try wrapped.events(session: session, range: range)
    }
    func event(session: String, index: Int) throws -> TimelineEvent {
        try wrapped.event(session: session, index: index)
    }
    func state(session: String, index: Int) throws -> JSONValue { try wrapped.state(session: session, index: index) }
    /// Waits for `open()`, then forwards.
    func values(
        session: String, pointers: [JSONPointer], after indices: [Int], progress: TimelineSearchProgress
    ) throws -> [[RecordedValue]] {
        lock.withLock { startedCount += 1 }
        if gate.wait(timeout: .now() + TestTime.seconds(30)) == .success { gate.signal() }
        return try wrapped.values(session: session, pointers: pointers, after: indices, progress: progress)
    }
}
