import Rewind

/// The sample's clock: real time, which the `wait` command fast-forwards.
///
/// Time-based effects (the search debounce) wait on this clock, injected at launch. Left alone it follows real time,
/// so interactive and `--demo` runs behave as any app would; `wait 300ms` moves the app's time ahead at once, waking
/// every effect whose wait ends by then, in the order their waits end. A `--script` therefore says "300 ms later"
/// and gets there instantly and always in the same order, which makes scripted sessions deterministic.
///
/// (The same type is in the `login` sample: samples are single executables that share only `SampleSupport`.)
///
/// Threading: main actor, like the effects that wait on it; a woken effect runs on the main actor before the
/// command after `wait`.
@MainActor
final class FastForwardClock: EffectClock {
    private struct Sleeper {
        let deadline: Duration
        let continuation: CheckedContinuation<Void, any Error>
        var timer: Task<Void, Never>?
    }

    private let start = ContinuousClock.now
    private var skipped: Duration = .zero
    private var sleepers: [UInt64: Sleeper] = [:]
    private var lastID: UInt64 = 0

    /// A clock that starts at zero, now.
    init() {}

    /// The app's time since the clock was created: real time plus every fast-forward.
    var now: Duration {
        ContinuousClock.now - start + skipped
    }

    /// How many effects are waiting on the clock.
    var pendingCount: Int {
        sleepers.count
    }

    /// Suspends the calling effect until the app's time has moved on by `duration` (really, or by fast-forwards).
    /// Throws `CancellationError` when the effect is cancelled.
    func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        guard duration > .zero else { return }
        lastID &+= 1
        let id = lastID
        let deadline = now + duration
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                scheduleTimer(for: id)
            }
        } onCancel: {
            Task { @MainActor in self.wake(id, throwing: CancellationError()) }
        }
    }

    /// Moves the app's time ahead by `duration`, waking at once, in deadline order, every effect whose wait ends by
    /// then. The woken effects run as soon as the caller yields the main actor.
    func fastForward(by duration: Duration) {
        guard duration > .zero else { return }
        skipped += duration
        let current = now
        let due = sleepers
            .filter { $0.value.deadline <= current }
            .sorted { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }
        for (id, _) in due {
            wake(id, throwing: nil)
        }
        for id in sleepers.keys {
            scheduleTimer(for: id)
        }
    }

    /// Reads a duration written as `300ms`, `2s` or `1.5s` (at most a year); nil for anything else.
    static func duration(parsing text: String) -> Duration? {
        let milliseconds: Double?
        if text.hasSuffix("ms") {
            milliseconds = Double(text.dropLast(2))
        } else if text.hasSuffix("s") {
            milliseconds = Double(text.dropLast()).map { $0 * 1000 }
        } else {
            milliseconds = nil
        }
        guard let milliseconds, milliseconds >= 0, milliseconds <= 365 * 24 * 3600 * 1000 else { return nil }
        return .milliseconds(Int64(milliseconds.rounded()))
    }

    /// (Re)starts the real-time timer of a sleeper, for what is left of its wait in the app's time.
    private func scheduleTimer(for id: UInt64) {
        guard let sleeper = sleepers[id] else { return }
        sleeper.timer?.cancel()
        let remaining = sleeper.deadline - now
        sleepers[id]?.timer = Task { [weak self] in
            do {
                try await Task.sleep(for: remaining)
            } catch {
                return
            }
            self?.wake(id, throwing: nil)
        }
    }

    private func wake(_ id: UInt64, throwing error: (any Error)?) {
        guard let sleeper = sleepers.removeValue(forKey: id) else { return }
        sleeper.timer?.cancel()
        if let error {
            sleeper.continuation.resume(throwing: error)
        } else {
            sleeper.continuation.resume()
        }
    }
}
