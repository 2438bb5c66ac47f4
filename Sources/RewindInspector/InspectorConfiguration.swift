import Foundation

/// How an app's inspector connects, what it may hold in memory, and what it must never send.
///
/// Built in code, or from the environment with ``fromEnvironment(_:)``:
/// - `REWIND_URL`: the daemon's address (default `ws://127.0.0.1:7723`);
/// - `REWIND_TOKEN`: the token the daemon requires, if it requires one;
/// - `REWIND_DISABLED=1`: attach nothing at all (the middleware passes actions straight through);
/// - `REWIND_OUTBOX_BYTES`: the outbox budget in bytes (default 64 MiB).
public struct InspectorConfiguration: Sendable {
    /// The daemon's WebSocket address.
    public var url: String = "ws://127.0.0.1:7723"
    /// The token sent in `hello` when the daemon requires one.
    public var token: String?
    /// When true the inspector starts no thread and opens no socket.
    public var disabled = false
    /// The most the outbox may hold, in bytes (estimated from encoded sizes), before it coalesces states.
    public var outboxBudgetBytes = 64 << 20
    /// Dotted key paths replaced by a placeholder before anything leaves the process (see ``Redactor``).
    public var redactedPaths: [String] = []
    /// The most events sent in one `batch` frame.
    public var maxBatchEvents = 512
    /// The most bytes of encoded events sent in one `batch` frame.
    public var maxBatchBytes = 256 << 10

    /// The configuration with every field at its default.
    public init() {}

    /// A configuration with `url`, `token`, `disabled` and the outbox budget read from `environment`
    /// (`REWIND_URL`, `REWIND_TOKEN`, `REWIND_DISABLED`, `REWIND_OUTBOX_BYTES`), other fields at their defaults.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        -> InspectorConfiguration
    {
        var configuration = InspectorConfiguration()
        if let url = environment["REWIND_URL"], !url.isEmpty { configuration.url = url }
        if let token = environment["REWIND_TOKEN"], !token.isEmpty { configuration.token = token }
        if let disabled = environment["REWIND_DISABLED"] {
            configuration.disabled = ["1", "true", "yes"].contains(disabled.lowercased())
        }
        if let budget = environment["REWIND_OUTBOX_BYTES"].flatMap(Int.init), budget > 0 {
            configuration.outboxBudgetBytes = budget
        }
        return configuration
    }
}
