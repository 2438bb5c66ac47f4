import Rewind

/// A manual ``EffectClock`` for tests: time stands still until the test advances it, so time-based effects run
/// instantly and deterministically, and no test sleeps.
///
/// ```swift
/// let clock = TestClock()
/// let store = TestStore(initialState: Timer(), reducer: .timer, clock: clock)
/// await store.send(.start) { $0.isRunning = true }
/// await clock.advance(by: .seconds(1))
/// await store.receive(.tick) { $0.ticks = 1 }
/// ```
///
/// Threading: main actor. Effects run on the main actor too, so a sleeping effect is registered before the test
/// can advance the clock past it.
@MainActor
public final class TestClock: EffectClock {
    private struct Sleeper {
        let id: UInt64
        let deadline: Duration
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// How much time has passed since the clock was created.
    public private(set) var now: Duration = .zero

    private var sleepers: [Sleeper] = []
    private var nextID: UInt64 = 0

    /// A clock at time zero.
    public init() {}

    /// How many effects are currently waiting on this clock.
    public var pendingSleepCount: Int {
        sleepers.count
    }

    /// Suspends until the clock has been advanced by `duration`; throws `CancellationError` when the waiting task
    /// is cancelled. A zero or negative duration returns at once.
    public func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        guard duration > .zero else { return }
        nextID &+= 1
        let id = nextID
        let deadline = now + duration
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
            }
        } onCancel: {
            Task { @MainActor in self.cancelSleeper(id) }
        }
    }

    /// Moves time forward by `duration`, waking, in deadline order, every effect whose wait ends by then, and
    /// letting each run until it waits again before moving on.
    public func advance(by duration: Duration) async {
        let end = now + max(duration, .zero)
        await Self.yieldToEffects()
        while let next = nextSleeper(endingBy: end) {
            sleepers.removeAll { $0.id == next.id }
            now = max(now, next.deadline)
            next.continuation.resume()
            await Self.yieldToEffects()
        }
        now = end
        await Self.yieldToEffects()
    }

    /// Advances until no effect is waiting on the clock (for effects that end; a repeating effect never does, so
    /// at most `limit` of time passes).
    public func run(limit: Duration = .seconds(3600)) async {
        let end = now + limit
        await Self.yieldToEffects()
        while let next = nextSleeper(endingBy: end) {
            await advance(by: next.deadline - now)
        }
    }

    private func nextSleeper(endingBy end: Duration) -> Sleeper? {
        sleepers
            .filter { $0.deadline <= end }
            .min { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
    }

    private func cancelSleeper(_ id: UInt64) {
        guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return }
        let sleeper = sleepers.remove(at: index)
        sleeper.continuation.resume(throwing: CancellationError())
    }

    /// Lets effect tasks queued on the main actor run until they suspend again.
    static func yieldToEffects() async {
        for _ in 0..<20 {
            await Task.yield()
        }
    }
}
