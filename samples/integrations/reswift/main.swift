// docs/INTEGRATIONS.md, verbatim (IntegrationSnippetTests keeps the two equal): edit both together.
import ReSwift
import RewindInspector

struct ReplaceState<S: Sendable>: Action { let state: S }

func replacingState<S: Sendable>(_ reducer: @escaping Reducer<S>) -> Reducer<S> {
    { action, state in (action as? ReplaceState<S>)?.state ?? reducer(action, state) }
}

func recordingMiddleware<S: Sendable>(_ recorder: Recorder<S, RecordedAction>) -> Middleware<S> {
    { _, getState in { next in { action in
        next(action)
        guard !(action is ReplaceState<S>), let state = getState() else { return }
        recorder.record(RecordedAction(action), state: state)
    } } }
}

final class StoreBox: @unchecked Sendable { var store: Store<AppState>? }   // main thread only
let box = StoreBox()
var host = RecorderHost<AppState, RecordedAction>(currentState: { box.store?.state })
host.offerJump { box.store?.dispatch(ReplaceState(state: $0)) }
host.offerDispatch { box.store?.dispatch($0.action) }
host.offerReplay(reducing: { state, recorded in state = appReducer(recorded.action, state) },
                 replace: { box.store?.dispatch(ReplaceState(state: $0)) })
let recorder = Recorder(name: "my-app", initialState: AppState(), host: host)
box.store = Store(reducer: replacingState(appReducer), state: AppState(),
                  middleware: [/* the app's own middleware first, */ recordingMiddleware(recorder)])  // last
