// docs/INTEGRATIONS.md, verbatim (IntegrationSnippetTests keeps the two equal): edit both together.
import ComposableArchitecture
import RewindInspector

struct RecordingReducer<Base: Reducer>: Reducer where Base.State: Sendable, Base.Action: Sendable {
    let base: Base
    let recorder: Recorder<Base.State, Base.Action>
    let stateToSet: (Base.Action) -> Base.State?

    var body: some Reducer<Base.State, Base.Action> {
        Reduce { state, action in
            if let replacement = stateToSet(action) { state = replacement }
            return .none
        }
        base
        Reduce { state, action in
            if stateToSet(action) == nil { recorder.record(action, state: state) }
            return .none
        }
    }
}

// In the feature: `case recorderSetState(State)` in its Action, handled as `.none` by its own reducer.
@MainActor func makeStore() -> StoreOf<AppFeature> {
    nonisolated(unsafe) var store: StoreOf<AppFeature>!
    var host = RecorderHost<AppFeature.State, AppFeature.Action>(currentState: {
        MainActor.assumeIsolated { store.state }
    })
    host.offerJump { state in MainActor.assumeIsolated { _ = store.send(.recorderSetState(state)) } }  // State: Codable
    let recorder = Recorder(name: "my-app", initialState: AppFeature.State(), host: host)
    store = Store(initialState: AppFeature.State()) {
        RecordingReducer(base: AppFeature(), recorder: recorder) {
            if case .recorderSetState(let state) = $0 { state } else { nil }
        }
    }
    return store
}
