import Foundation

/// Tunes a ``Store``: deduplication default, runaway-loop threshold, the clock of time-based effects, and the hooks
/// that report misuse.
///
/// Threading: a `Sendable` value; the hooks are called on the main actor.
public struct StoreConfiguration: Sendable {
    /// Whether subscriptions skip a selected value equal to the last one delivered when it is `Equatable`
    /// (default `true`). Each subscription can override it.
    public var deduplicatesEquatableValues: Bool

    /// How many actions one `dispatch` call may chain synchronously (queued re-entrant dispatches, synchronous
    /// effects) before the store reports a ``RunawayLoop`` and drops the queue. Default 10,000.
    public var runawayThreshold: Int

    /// The clock time-based effects wait on. Default: ``SystemClock``.
    public var clock: any EffectClock

    /// Called when a runaway loop is stopped. Default: prints the report to standard error.
    public var onRunawayLoop: @MainActor (RunawayLoop) -> Void

    /// Called when the library detects a programming error. Default: prints the report to standard error.
    public var onProgrammingError: @MainActor (ProgrammingError) -> Void

    /// Creates a configuration; every parameter has the default described on its property.
    public init(
        deduplicatesEquatableValues: Bool = true,
        runawayThreshold: Int = 10_000,
        clock: any EffectClock = SystemClock(),
        onRunawayLoop: @escaping @MainActor (RunawayLoop) -> Void = StoreConfiguration.printRunawayLoop,
        onProgrammingError: @escaping @MainActor (ProgrammingError) -> Void = StoreConfiguration.printProgrammingError
    ) {
        self.deduplicatesEquatableValues = deduplicatesEquatableValues
        self.runawayThreshold = runawayThreshold
        self.clock = clock
        self.onRunawayLoop = onRunawayLoop
        self.onProgrammingError = onProgrammingError
    }

    /// The default ``onRunawayLoop``: writes the report to standard error.
    @MainActor
    public static func printRunawayLoop(_ loop: RunawayLoop) {
        writeToStandardError("[Rewind] \(loop)\n")
    }

    /// The default ``onProgrammingError``: writes the report to standard error.
    @MainActor
    public static func printProgrammingError(_ error: ProgrammingError) {
        writeToStandardError("[Rewind] programming error (\(error.kind.rawValue)): \(error)\n")
    }

    private static func writeToStandardError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
