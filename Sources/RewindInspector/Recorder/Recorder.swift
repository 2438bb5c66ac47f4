import Foundation
import Rewind
import RewindWire

/// Records any Swift store for the `rewind` daemon: the one seam every integration goes through.
///
/// The host (the app, or a ten-line adapter for its architecture: docs/INTEGRATIONS.md) creates a recorder with its
/// initial state and a ``RecorderHost`` saying what the daemon may do to it, then calls
/// ``record(_:state:source:reducerNanos:)`` with every action and the state after it:
///
/// ```swift
/// var host = RecorderHost<AppState, AppAction>(currentState: { model.state })
/// host.offerJump { model.state = $0 }
/// let recorder = Recorder(name: "todo", initialState: model.state, host: host)
/// // after each action:
/// recorder.record(action, state: model.state)
/// ```
///
/// Cost on the caller's thread: one copy of the action and of the state (a value type: a few reference-count
/// increments) into a bounded outbox (``Outbox``), O(1), no encoding, no allocation beyond amortised growth.
/// Encoding (the types' own `Encodable` conformance, or reflection for types that are not: ``ReflectedValueEncoder``),
/// diffing and sending happen on the recorder's own thread. The recording path is inlinable, so that it is
/// specialized for the host's `State` and `Action`: generic code run unspecialized looks up type metadata at run time
/// on every call. With no daemon running the host behaves exactly as without it; with
/// ``InspectorConfiguration/disabled`` (`REWIND_DISABLED=1`) the recorder starts nothing and records nothing.
///
/// Each ability the host offers is advertised in `hello` (``capabilities``); the daemon refuses the others for this
/// session. `Inspector.middleware` is this recorder with a `Rewind.Store` as its host.
///
/// Threading: ``record(_:state:source:reducerNanos:)`` is called from the host's serial context (the thread or actor
/// its store runs on), one call at a time; the daemon's commands are applied there too, through the host's
/// ``RecorderExecutor`` (by default the main actor), so that context must be the executor's. Create and release the
/// recorder anywhere; releasing it stops its thread and closes its connection.
public final class Recorder<State: Sendable, Action: Sendable>: @unchecked Sendable {
    /// The outbox; nil when the inspector is disabled.
    @usableFromInline
    let outbox: Outbox<State, Action>?
    /// The number of the last action recorded, behind a pointer allocated once: a stored `var` of a class would
    /// cost every ``record(_:state:source:reducerNanos:)`` a dynamic exclusivity check (`swift_beginAccess`, a
    /// thread-local lookup that misses the cache when the app dispatches at human pace). Host's context only.
    @usableFromInline
    let seqStorage: UnsafeMutablePointer<UInt64>
    /// The number of the last action recorded. Host's context only.
    var seq: UInt64 { seqStorage.pointee }
    private let pipeline: InspectorPipeline<State, Action>?
    private let commands: CommandApplier<State, Action>?
    /// The `hello` capabilities this recorder advertises: the host's offered abilities, then `batch`.
    public let capabilities: [String]

    /// Starts recording a host.
    ///
    /// - Parameters:
    ///   - name: The app's name on the timeline.
    ///   - initialState: The host's state now, before the first recorded action.
    ///   - host: What the daemon may do to the host, and where its commands run.
    ///   - redacting: Dotted key paths replaced by a placeholder before anything leaves the process (see
    ///     ``Redactor``); added to `configuration.redactedPaths`.
    ///   - configuration: Where to connect, the outbox budget, and the rest (by default from the environment:
    ///     `REWIND_URL`, `REWIND_TOKEN`, `REWIND_DISABLED`…).
    ///   - transport: The WebSocket client; nil for the platform's default.
    public convenience init(name: String, initialState: State, host: RecorderHost<State, Action>,
                            redacting: [String] = [],
                            configuration: InspectorConfiguration = .fromEnvironment(),
                            transport: (any InspectorTransport)? = nil) {
        var configuration = configuration
        configuration.redactedPaths += redacting
        self.init(name: name, initialState: initialState, host: host, coding: .automatic,
                  configuration: configuration, transport: transport)
    }

    /// The designated initializer: `coding` says how states and actions become JSON.
    init(name: String, initialState: State, host: RecorderHost<State, Action>, coding: RecorderCoding<State, Action>,
         configuration: InspectorConfiguration, transport: (any InspectorTransport)?) {
        capabilities = host.capabilities
        seqStorage = .allocate(capacity: 1)
        seqStorage.initialize(to: 0)
        guard !configuration.disabled else {
            outbox = nil
            pipeline = nil
            commands = nil
            return
        }
        let transport = transport ?? Inspector.defaultTransport()
        let outbox = Outbox<State, Action>(budgetBytes: configuration.outboxBudgetBytes)
        let commands = CommandApplier<State, Action>(
            host: host, coding: coding, transport: transport, redactor: Redactor(paths: configuration.redactedPaths))
        let executor = host.executor
        self.outbox = outbox
        self.commands = commands
        self.pipeline = InspectorPipeline(
            outbox: outbox, transport: transport, configuration: configuration,
            identity: AppIdentity(name: name, instance: Inspector.processInstance),
            stateType: String(reflecting: State.self), initialState: initialState, coding: coding,
            capabilities: capabilities,
            onCommand: { message in
                executor.run { commands.apply(message) }
            },
            onSnapshotWanted: {
                executor.run { commands.reportCurrentState(reason: Outbox<State, Action>.closingReason) }
            })
        let onTimeTravel = configuration.onTimeTravel
        commands.onStateReplaced = { [weak self] state, reason in
            self?.recordReplacement(state, reason: reason)
            if reason == "jump" || reason == "replay" { onTimeTravel?(reason) }
        }
        pipeline?.start()
    }

    deinit {
        pipeline?.stop()
        seqStorage.deallocate()
    }

    /// Records one action and the state after it: copies both into the outbox and returns. O(1); never blocks on
    /// the recorder's work. Host's context only (see ``Recorder``).
    ///
    /// - Parameters:
    ///   - action: The action the host just handled.
    ///   - state: The host's state after it.
    ///   - source: Where the action was dispatched, if the host knows (shown on the timeline).
    ///   - reducerNanos: How long the host's reducer took, in nanoseconds, if it measured it; nil (the default)
    ///     records the time as unknown — the timeline shows nothing rather than `0ns`.
    @inlinable
    public func record(_ action: Action, state: State, source: SourceLocation? = nil, reducerNanos: UInt64? = nil) {
        record(action, state: state, source: source, finishedNanos: DispatchClock.nanoseconds(),
               reducerNanos: reducerNanos ?? ReducerTime.unmeasured)
    }

    /// ``record(_:state:source:reducerNanos:)`` with the time the action finished already read (on
    /// ``DispatchClock``), for adapters that time the reducer themselves (`ReducerTime.unmeasured` when not).
    @inlinable
    func record(_ action: Action, state: State, source: SourceLocation?, finishedNanos: UInt64,
                reducerNanos: UInt64) {
        guard let outbox else { return }
        let seq = seqStorage.pointee &+ 1
        seqStorage.pointee = seq
        outbox.push(seq: seq, finishedNanos: finishedNanos, action: action, source: source, state: state,
                    reducerNanos: reducerNanos)
    }

    /// What the recorder did with the actions it recorded so far (sent with their states, without, lost). Any
    /// thread.
    public var deliveryCounts: InspectorDeliveryCounts {
        pipeline?.deliveryCounts ?? InspectorDeliveryCounts()
    }

    /// How the encoding memo fared so far (states encoded through it, comparisons with a full encoding, whether one
    /// found it wrong); empty when the recorder is disabled. Any thread.
    var memoStatistics: StateEncoder<State, Action>.MemoStatistics {
        pipeline?.memoStatisticsSnapshot ?? .init()
    }

    /// Waits until everything this recorder recorded so far is committed to the daemon's record (it acknowledged
    /// having written it to its file), or until nothing more is on its way, or `timeout` seconds pass. Returns true
    /// when everything was delivered with no action lost, and at once when the recorder is disabled; false when time
    /// ran out, or at once when everything is accounted for but actions were lost (``deliveryCounts``).
    /// ``Inspector/waitUntilDelivered(timeout:)`` waits for every recorder of the process.
    ///
    /// Threading: blocks the calling thread; call it off the host's context (when the recorder coalesced, delivery
    /// ends with a snapshot of the host's state read there).
    @discardableResult
    public func waitUntilDelivered(timeout: Double = 5) -> Bool {
        guard let pipeline else { return true }
        return InspectorRegistry.waitUntilSettled(timeout: timeout) { [pipeline] } == true
    }

    /// Writes the last actions this recorder kept in memory to a capture file and returns where it is, like
    /// ``Inspector/captureNow(reason:timeout:)`` for this recorder alone; nil when none could be written (the reason is
    /// on standard error) or the recorder is disabled.
    ///
    /// Threading: any thread; blocks the caller until the file is written (at most `timeout` seconds).
    @discardableResult
    public func captureNow(reason: String, timeout: Double = 2) -> URL? {
        guard let pipeline else { return nil }
        switch pipeline.captureRecent(note: reason, timeout: timeout) {
        case .success(let url)?:
            return url
        case .failure(let error)?:
            FileHandle.standardError.write(Data("rewind inspector: '\(pipeline.appName)': \(error)\n".utf8))
            return nil
        case nil:
            return nil
        }
    }

    /// Queues the state a command put in place (jump, replay, resync) as a snapshot. Host's context.
    private func recordReplacement(_ state: State, reason: String) {
        outbox?.pushSnapshot(afterSeq: seq, finishedNanos: DispatchClock.nanoseconds(), state: state, reason: reason)
    }
}
