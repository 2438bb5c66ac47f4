// The feature the TCA snippet of docs/INTEGRATIONS.md names but does not show, with the one action case its jump
// needs. Only here so that the snippet compiles against the TCA stand-in.
import ComposableArchitecture

/// A counter feature.
struct AppFeature: Reducer {
    struct State: Codable, Sendable, Equatable {
        var count = 0
    }

    enum Action: Sendable {
        case increment
        case factLoaded(Result<String, any Error>)
        case recorderSetState(State)
    }

    var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case .increment: state.count += 1
            case .factLoaded, .recorderSetState: break
            }
            return .none
        }
    }
}
