// The app the SwiftRex snippet of docs/INTEGRATIONS.md names but does not show: its state, actions (with the case
// jump reduces), feature reducer, the subject its store keeps the state in, and the store. Only here so that the
// snippet compiles against the SwiftRex stand-in; run, it only builds the host.
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

/// Where the store keeps its state. SwiftRex 0.8.12 leaves the subject to the app's reactive framework (CombineRex:
/// `.combine(initialValue: AppState())`); on Linux, without one, a box that replays its value to each subscriber.
@MainActor let appSubject: UnfailableReplayLastSubjectType<AppState> = {
    final class Box { var value = AppState() }
    struct NoSubscription: Subscription { func unsubscribe() {} }
    let box = Box()
    return UnfailableReplayLastSubjectType(
        publisher: UnfailablePublisherType { subscriber in subscriber.onValue(box.value); return NoSubscription() },
        subscriber: SubscriberType(onValue: { box.value = $0 }),
        value: { box.value })
}()

/// The app's store, recording through the snippet's middleware.
@MainActor let store = ReduxStoreBase(
    subject: appSubject,
    reducer: appReducer,
    middleware: RecorderMiddleware(recorder: Recorder(name: "my-app", initialState: AppState(), host: host)))
