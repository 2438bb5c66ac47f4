import Foundation
import Rewind
import RewindWire

/// One `Rewind.Store`'s inspector: the first adapter of ``Recorder``, created by
/// ``Inspector/middleware(name:configuration:transport:)`` when the store is created.
///
/// The store is the recorder's host: it offers every ability (`jump` replaces the store's state, `dispatch`
/// dispatches through the whole middleware chain, `replay` runs the reducer with effects muted), on the main actor,
/// the store's executor. Lives as long as the store's middleware chain; releasing it releases the recorder, which
/// stops its pipeline thread and transport.
///
/// Threading: everything runs on the main actor (inside `dispatch`, or applying a daemon command); the pipeline
/// runs on its own thread and meets this type only through the recorder's outbox.
@usableFromInline
final class InspectorSession<State: Codable & Sendable, Action: Codable & Sendable> {
    @usableFromInline
    let context: MiddlewareContext<State, Action>
    @usableFromInline
    let recorder: Recorder<State, Action>

    @MainActor
    @usableFromInline
    init(name: String, configuration: InspectorConfiguration, transport: any InspectorTransport,
         context: MiddlewareContext<State, Action>, initialState: State) {
        self.context = context
        self.recorder = Recorder(name: name, initialState: initialState, host: Self.host(of: context),
                                 coding: .codable, configuration: configuration, transport: transport)
    }

    /// The store as a recorder host: every ability, on the main actor.
    @MainActor
    private static func host(of context: MiddlewareContext<State, Action>) -> RecorderHost<State, Action> {
        var host = RecorderHost<State, Action>(executor: .mainActor) {
            MainActor.assumeIsolated { context.state }
        }
        host.offerJump { state in MainActor.assumeIsolated { context.replaceState(state) } }
        host.offerDispatch { action in MainActor.assumeIsolated { context.dispatch(action) } }
        host.offerReplay { initial, actions, each in
            MainActor.assumeIsolated { context.replay(from: initial, actions: actions, each: each) }
        }
        return host
    }

    /// Passes the action on, then records the action and the resulting state. Main actor; O(1).
    /// Inlinable so that it is specialized for the app's types (see ``Inspector``).
    @MainActor
    @inlinable
    func record(_ dispatched: DispatchedAction<Action>, next: @MainActor (DispatchedAction<Action>) -> Void) {
        let start = DispatchClock.nanoseconds()
        next(dispatched)
        let finished = DispatchClock.nanoseconds()
        guard let state = context.state else { return }
        recorder.record(dispatched.action, state: state, source: dispatched.source, finishedNanos: finished,
                        reducerNanos: finished &- start)
    }
}
