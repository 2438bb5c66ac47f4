// docs/INTEGRATIONS.md, verbatim (IntegrationSnippetTests keeps the two equal): edit both together.
import SwiftRex
import RewindInspector

final class RecorderMiddleware: MiddlewareProtocol {
    typealias InputActionType = AppAction; typealias OutputActionType = AppAction; typealias StateType = AppState
    let recorder: Recorder<AppState, AppAction>
    init(recorder: Recorder<AppState, AppAction>) { self.recorder = recorder }

    func handle(action: AppAction, from dispatcher: ActionSource, state: @escaping GetState<AppState>)
        -> IO<AppAction> {
        if case .recorderSetState = action { return .pure() }
        return IO { [recorder] _ in recorder.record(action, state: state()) }   // after the reducer ran
    }
}

let appReducer = Reducer<AppAction, AppState>.reduce { action, state in
    if case .recorderSetState(let replacement) = action { state = replacement }
} <> featureReducer

// ReduxStoreBase has no `state`: read the subject the store was made with.
var host = RecorderHost<AppState, AppAction>(currentState: { MainActor.assumeIsolated { appSubject.value() } })
host.offerJump { state in MainActor.assumeIsolated { store.dispatch(.recorderSetState(state)) } }
host.offerDispatch { action in MainActor.assumeIsolated { store.dispatch(action) } }   // AppAction: Codable
host.offerReplay(reducing: { state, action in appReducer.reduce(action, &state) },
                 replace: { state in MainActor.assumeIsolated { store.dispatch(.recorderSetState(state)) } })
