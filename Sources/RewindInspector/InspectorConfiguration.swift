import Foundation

/// How an app's inspector connects, what it may hold in memory, and what it must never send.
///
/// Built in code, or from the environment with ``fromEnvironment(_:)``:
/// - `REWIND_URL`: the daemon's address (default `ws://127.0.0.1:7723`);
/// - `REWIND_TOKEN`: the token the daemon requires, if it requires one;
/// - `REWIND_DISABLED=1`: attach nothing at all (the middleware passes actions straight through);
/// - `REWIND_OUTBOX_BYTES`: the inspector's memory budget, in bytes (default 64 MiB; see ``outboxBudgetBytes``);
/// - `REWIND_EXIT_FLUSH_SECONDS`: how long a normal process exit waits for undelivered events (default 2);
/// - `REWIND_ANSWER_TIMEOUT_SECONDS`: how long a silent daemon keeps a connection before it is taken for dead
///   (default 30; 0: never);
/// - `REWIND_MEMO_MIN_BYTES`: the state size from which states are encoded incrementally (default 16384; `off`: never;
///   see ``memoMinimumStateBytes``);
/// - `REWIND_CAPTURE_DIR`: record offline into this directory while no daemon is connected (``captureOffline``,
///   ``captureDirectory``); `REWIND_CAPTURE=1`: the same into the default directory;
/// - `REWIND_CAPTURE_RECENT`: how many of the last actions to keep for ``Inspector/captureNow(reason:timeout:)``
///   (``captureRecentActions``);
/// - `REWIND_CAPTURE_FILE_BYTES`, `REWIND_CAPTURE_FILES`: the capture directory's limits (``captureMaxFileBytes``,
///   ``captureMaxFiles``).
public struct InspectorConfiguration: Sendable {
    /// The daemon's WebSocket address.
    public var url: String = "ws://127.0.0.1:7723"
    /// The token sent in `hello` when the daemon requires one.
    public var token: String?
    /// When true the inspector starts no thread and opens no socket.
    public var disabled = false
    /// The inspector's memory budget, in bytes: what the inspector adds to the process's resident memory stays
    /// within it plus a fixed overhead of at most 32 MiB (its threads, the WebSocket library's buffers, the code it
    /// brings in; BENCHMARKS.md, "Memory"), whatever the state's size, its growth, the rate and the bursts.
    ///
    /// It covers everything the inspector holds: the actions and states queued while the app outruns the daemon,
    /// the encoded trees of the last state, the frames waiting in the transport and those kept to be sent again after
    /// a reconnect. Under pressure states go first (the outbox *coalesces*: later actions are kept without their
    /// states, a `dropped` range whose states are unknown in the record, closed by a full snapshot), and actions last
    /// (counted lost in the record: `lost` rows, `rewind sessions`' LOST column). Queued states are charged what they
    /// do not share with the states after them (copy-on-write keeps the rest shared); while the process's resident
    /// memory has grown by more than half the budget since the inspector last caught up, no state is kept at all.
    ///
    /// The default keeps about 300,000 one-field actions waiting (about 150 B each) beside 1 MB states; an app that
    /// bursts a million actions faster than the daemon records them needs about 256 MiB to keep them all.
    public var outboxBudgetBytes = 64 << 20
    /// How long, at most, a normal process exit (`exit`, or returning from `main`) waits for the inspector to
    /// deliver what is still queued and say `goodbye`, in seconds. 0: do not wait.
    public var exitFlushSeconds = 2.0
    /// How long a connected daemon may leave the inspector without an answer it owes (the `welcome` after
    /// `hello`; with a daemon that acknowledges, an `ack` for events it was sent) before the inspector takes the
    /// connection for dead (a half-open TCP connection, a peer that stopped reading), closes it, reconnects and sends
    /// again what was not confirmed, saying so once on standard error. In seconds; 0: never.
    public var answerTimeoutSeconds = 30.0
    /// Dotted key paths replaced by a placeholder before anything leaves the process (see ``Redactor``).
    public var redactedPaths: [String] = []
    /// The most events sent in one `batch` frame.
    public var maxBatchEvents = 512
    /// The most bytes of encoded events sent in one `batch` frame.
    public var maxBatchBytes = 256 << 10
    /// The state size, in bytes of encoded JSON (as the pipeline last measured it), from which the inspector's
    /// thread encodes states incrementally: it reuses the encoding of every `Array`, `ContiguousArray`,
    /// `Dictionary` and `Set` that cannot have changed since the previous state (same storage), and of the unchanged
    /// elements of changed arrays of `Equatable` elements, so that its cost follows the change rather than the state
    /// (docs/ARCHITECTURE.md, "The encoding memo"). Below it every state is encoded whole, which is as fast for
    /// small states and keeps nothing alive between states. 0: always incremental; `Int.max`: never. Only states
    /// encoded through their own `Encodable` conformance are encoded incrementally.
    ///
    /// The rule behind the default, 16 KiB (`make bench`, "Incremental encoding", encode + diff after a one-field
    /// change): at 1 kB the memo gains almost nothing (8.1 µs against 9.4 µs for a full encoding), at 100 kB it is
    /// about 9× faster and at 1 MB about 70×, so it is worth its price from some tens of kilobytes; its price is on
    /// the app's thread: while the previous state's collections are kept for comparison, the reducer's next change
    /// copies the collections on its path.
    public var memoMinimumStateBytes = 16 << 10
    /// While encoding incrementally, every this many states the inspector also encodes the state whole and compares,
    /// on a thread of its own that uses at most an eighth of one processor (so with large states at high rates the
    /// checks are further apart), and it compares the last state whenever the app goes idle; on a difference it sends
    /// the full state as a `snapshot` (reason `memo-check`), encodes every state whole for the rest of the session,
    /// and logs why once. At least 1.
    public var memoCheckInterval = 64
    /// Called after the timeline put a recorded state in place — a `jump` or a `replay` (its argument) — on the
    /// host's executor (the main actor for a `Rewind.Store`), once the app's state is the one put in place. For
    /// work the app does on its own that would overwrite a state being inspected: pausing timers, polling or a
    /// demo loop while someone travels in time (Redux DevTools calls this "lock"). Nil: nothing is called.
    public var onTimeTravel: (@Sendable (String) -> Void)?
    /// Record while no daemon is connected: every action and state diff goes to capture files in
    /// ``captureDirectory`` instead (docs/INTEGRATIONS.md, "QA and bug reports"; `rewind import` reads them), redacted
    /// like everything the inspector sends, written on the inspector's thread. A rolling window: at most
    /// ``captureMaxFiles`` files of ``captureMaxFileBytes`` each; the oldest are deleted. When a daemon is reached the
    /// current file ends and the daemon records again (it is also sent what was captured, as far as the resend log
    /// reaches: a sixteenth of ``outboxBudgetBytes``, twice). Off by default.
    public var captureOffline = false
    /// Where capture files go; nil: `$XDG_STATE_HOME/rewind/captures` (`~/.local/state/rewind/captures`) on Linux, the
    /// app's caches directory (`Library/Caches/rewind-captures`) on Apple platforms.
    public var captureDirectory: URL?
    /// The size at which a capture file ends and the next starts, in bytes (it ends when the inspector's thread
    /// finishes the turn that crossed it, so it may pass it by what one turn writes: at most ``maxBatchEvents``
    /// actions and a snapshot). Default 8 MiB.
    public var captureMaxFileBytes = 8 << 20
    /// The most capture files kept in ``captureDirectory`` (offline parts and triggered captures, of every app that
    /// writes there): starting a new one deletes the oldest beyond it. Default 8.
    public var captureMaxFiles = 8
    /// How many of the latest actions the inspector keeps in memory, with a state they start from, so that
    /// ``Inspector/captureNow(reason:timeout:)`` can write them to a capture file (an error, an assertion failure, a
    /// "report a bug" button). The frames kept take at most an eighth of ``outboxBudgetBytes``. 0 (the default): none.
    public var captureRecentActions = 0

    /// The configuration with every field at its default.
    public init() {}

    /// A configuration with `url`, `token`, `disabled`, the memory budget, the exit flush time, the answer timeout,
    /// the memo's threshold and the local capture read from `environment` (the variables listed on the type), other
    /// fields at their defaults.
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
        if let seconds = environment["REWIND_EXIT_FLUSH_SECONDS"].flatMap(Double.init), seconds >= 0,
           seconds.isFinite {
            configuration.exitFlushSeconds = min(seconds, 600)
        }
        if let seconds = environment["REWIND_ANSWER_TIMEOUT_SECONDS"].flatMap(Double.init), seconds >= 0,
           seconds.isFinite {
            configuration.answerTimeoutSeconds = seconds
        }
        if let directory = environment["REWIND_CAPTURE_DIR"], !directory.isEmpty {
            configuration.captureOffline = true
            configuration.captureDirectory = URL(fileURLWithPath: directory, isDirectory: true)
        } else if let capture = environment["REWIND_CAPTURE"] {
            configuration.captureOffline = ["1", "true", "yes", "offline"].contains(capture.lowercased())
        }
        if let recent = environment["REWIND_CAPTURE_RECENT"].flatMap(Int.init), recent >= 0 {
            configuration.captureRecentActions = recent
        }
        if let bytes = environment["REWIND_CAPTURE_FILE_BYTES"].flatMap(Int.init), bytes > 0 {
            configuration.captureMaxFileBytes = bytes
        }
        if let files = environment["REWIND_CAPTURE_FILES"].flatMap(Int.init), files > 0 {
            configuration.captureMaxFiles = files
        }
        if let memo = environment["REWIND_MEMO_MIN_BYTES"] {
            if memo.lowercased() == "off" {
                configuration.memoMinimumStateBytes = Int.max
            } else if let bytes = Int(memo), bytes >= 0 {
                configuration.memoMinimumStateBytes = bytes
            }
        }
        return configuration
    }
}
