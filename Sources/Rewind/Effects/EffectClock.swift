/// The clock time-based effects wait on (``Effect/delayed(by:)``, ``Effect/repeating(every:)``, debouncing).
///
/// Injected through ``StoreConfiguration/clock``; tests inject a manual clock (`TestClock` in `RewindTesting`) and
/// advance it, so no test sleeps. Pass the same clock to reducers or interpreters whose effects wait.
///
/// Threading: `Sendable`; `sleep` is main-actor isolated so that a waiting effect registers with the clock in a
/// deterministic order relative to the store.
public protocol EffectClock: Sendable {
    /// Suspends the calling effect for `duration`. Throws `CancellationError` when the effect is cancelled.
    @MainActor func sleep(for duration: Duration) async throws
}

/// The real clock: `ContinuousClock` time, which keeps advancing while the system sleeps.
///
/// Threading: `Sendable`, stateless.
public struct SystemClock: EffectClock {
    /// Creates the system clock.
    public init() {}

    /// Suspends for `duration` of real time.
    @MainActor
    public func sleep(for duration: Duration) async throws {
        try await ContinuousClock().sleep(for: duration)
    }
}

extension EffectClock where Self == SystemClock {
    /// The real clock (``SystemClock``).
    public static var system: SystemClock { SystemClock() }
}
