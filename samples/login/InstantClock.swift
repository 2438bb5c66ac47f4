import Rewind

/// The clock of scripted runs (`--script`): every wait ends at once.
///
/// An effect that waits on it runs to its end as soon as it starts, before the script's next command, so a script
/// needs no timing and gives the same session on every run. Interactive and `--demo` runs use ``SystemClock``.
/// (The same type is in the other samples with time-based effects: samples share only `SampleSupport`.)
///
/// Threading: `Sendable`, stateless.
struct InstantClock: EffectClock {
    /// Returns at once, or throws `CancellationError` when the waiting effect is cancelled.
    @MainActor
    func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
    }
}
