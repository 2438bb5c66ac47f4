// The app the recorder snippets of docs/INTEGRATIONS.md name but do not show: its state, actions, reducer and a
// model holding the state. Only here so that the snippets compile; this target is never run.

/// The app's state.
struct AppState: Codable, Sendable, Equatable {
    var count = 0
}

/// The app's actions.
enum AppAction: Codable, Sendable {
    case increment
}

/// The app's reducer, a pure function.
func reduce(_ state: AppState, _ action: AppAction) -> AppState {
    var next = state
    switch action {
    case .increment: next.count += 1
    }
    return next
}

/// A hand-written store: the state and a way to send actions.
@MainActor
final class AppModel {
    var state = AppState()

    func send(_ action: AppAction) { state = reduce(state, action) }
}

/// The app's model.
@MainActor let model = AppModel()

/// The action the snippet records.
let action = AppAction.increment
