import Foundation
import Rewind
import RewindWire

/// One store's inspector: the middleware's per-store state on the app's side of the outbox.
///
/// Created by ``Inspector/middleware(name:configuration:transport:)`` when the store is created; lives as long as
/// the store's middleware chain, and stops its pipeline thread and transport when released.
///
/// Threading: everything but `deinit` runs on the main actor (inside `dispatch`, or applying a daemon command);
/// the pipeline runs on its own thread and meets this type only through the outbox.
@usableFromInline
final class InspectorSession<State: Codable & Sendable, Action: Codable & Sendable> {
    @usableFromInline
    let context: MiddlewareContext<State, Action>
    @usableFromInline
    let outbox: Outbox<State, Action>
    private let pipeline: InspectorPipeline<State, Action>
    private let commands: CommandApplier<State, Action>
    /// The number of the last action dispatched through this inspector.
    @usableFromInline
    var seq: UInt64 = 0

    @MainActor
    @usableFromInline
    init(name: String, configuration: InspectorConfiguration, transport: any InspectorTransport,
         context: MiddlewareContext<State, Action>, initialState: State) {
        let outbox = Outbox<State, Action>(stateBudgetBytes: configuration.outboxBudgetBytes,
                                           actionBudgetBytes: configuration.outboxActionBudgetBytes)
        let commands = CommandApplier<State, Action>(
            context: context, transport: transport, redactor: Redactor(paths: configuration.redactedPaths))
        self.context = context
        self.outbox = outbox
        self.commands = commands
        self.pipeline = InspectorPipeline(
            outbox: outbox, transport: transport, configuration: configuration,
            identity: AppIdentity(name: name, instance: Inspector.processInstance),
            stateType: String(reflecting: State.self), initialState: initialState,
            onCommand: { message in
                Task { @MainActor in commands.apply(message) }
            },
            onSnapshotWanted: {
                Task { @MainActor in commands.reportCurrentState(reason: Outbox<State, Action>.closingReason) }
            })
        commands.onStateReplaced = { [weak self] state, reason in
            self?.recordReplacement(state, reason: reason)
        }
        pipeline.start()
    }

    deinit {
        pipeline.stop()
    }

    /// Passes the action on, then copies the action and the resulting state into the outbox. Main actor; O(1).
    /// Inlinable so that it is specialized for the app's types (see ``Inspector``).
    @MainActor
    @inlinable
    func record(_ dispatched: DispatchedAction<Action>, next: @MainActor (DispatchedAction<Action>) -> Void) {
        let start = DispatchClock.nanoseconds()
        next(dispatched)
        let finished = DispatchClock.nanoseconds()
        guard let state = context.state else { return }
        seq &+= 1
        outbox.push(seq: seq, finishedNanos: finished, action: dispatched.action, source: dispatched.source,
                    state: state, reducerNanos: finished &- start)
    }

    /// Queues the state a command put in place (jump, replay, resync) as a snapshot. Main actor.
    @MainActor
    private func recordReplacement(_ state: State, reason: String) {
        outbox.pushSnapshot(afterSeq: seq, finishedNanos: DispatchClock.nanoseconds(), state: state, reason: reason)
    }
}
