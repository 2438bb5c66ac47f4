import Rewind

/// The clock of scripted runs (`--script`): every wait ends at once.
///
/// An effect that waits on it runs to its end as soon as it starts, before the script's next command, so a script
/// needs no timing and gives the same session on every run. Interactive and `--demo` runs use ``SystemClock``.
///
/// Threading: `Sendable`, stateless.
package struct InstantClock: EffectClock {
    /// A clock whose waits end at once.
    package init() {}

    /// Returns at once, or throws `CancellationError` when the waiting effect is cancelled.
    @MainActor
    package func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
    }
}
