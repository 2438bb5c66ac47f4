// The app: a counter with a "fact" effect, non-Codable actions (a closure, a `Result` with `any Error`), and the one
// extra action case that lets the recorder put a state in place.

struct CounterState: Codable, Sendable, Equatable {
    var count = 0
    var step = 1
    var fact: String?
}

enum CounterAction: Sendable {
    case increment
    case decrement
    case factButtonTapped
    case factResponse(Result<String, any Error>)
    /// A binding-style edit: a closure, so the action cannot be `Codable`.
    case binding(@Sendable (inout CounterState) -> Void)
    /// Sent only by the recorder (jump): puts a recorded state in place. TCA offers no state setter.
    case recorderSetState(CounterState)
}

struct FactError: Error {
    let count: Int
}

let counterReducer = Reduce<CounterState, CounterAction> { state, action in
    switch action {
    case .increment:
        state.count += state.step
        return .none
    case .decrement:
        state.count -= state.step
        return .none
    case .factButtonTapped:
        let count = state.count
        return .run { send in
            let fact = Result<String, any Error> {
                guard count >= 0 else { throw FactError(count: count) }
                return "\(count) is a number"
            }
            await send(.factResponse(fact))
        }
    case .factResponse(.success(let fact)):
        state.fact = fact
        return .none
    case .factResponse(.failure):
        state.fact = nil
        return .none
    case .binding(let edit):
        edit(&state)
        return .none
    case .recorderSetState:
        return .none
    }
}
