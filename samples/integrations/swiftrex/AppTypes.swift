// The app the SwiftRex snippet of docs/INTEGRATIONS.md names but does not show: its state, actions (with the case
// jump reduces), feature reducer and store. Only here so that the snippet compiles against the SwiftRex stand-in;
// this target is never run.
import RewindInspector
import SwiftRex

/// The app's state.
struct AppState: Codable, Sendable, Equatable {
    var count = 0
}

/// The app's actions, with the one case the recorder's jump sends.
enum AppAction: Codable, Sendable {
    case increment
    case recorderSetState(AppState)
}

/// The feature's reducer.
@MainActor let featureReducer = Reducer<AppAction, AppState>.reduce { action, state in
    if case .increment = action { state.count += 1 }
}

/// The app's store, recording through the snippet's middleware.
@MainActor let store: ReduxStoreBase<AppAction, AppState, RecorderMiddleware> = ReduxStoreBase(
    reducer: appReducer,
    middleware: RecorderMiddleware(recorder: Recorder(name: "my-app", initialState: AppState(), host: host)),
    initialState: AppState())
