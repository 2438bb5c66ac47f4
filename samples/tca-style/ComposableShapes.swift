// A reducer and store shaped like The Composable Architecture's, written here from its public shape (no code of
// that framework): a `Reducer` returns an `Effect`, effects send actions back, and the store offers no way to set
// its state from outside — only `send`.

/// Work a reducer asks the store to do after it returns: nothing, or an async operation that may send actions.
struct Effect<Action: Sendable>: Sendable {
    let operation: (@Sendable (Send<Action>) async -> Void)?

    /// No effect.
    static var none: Effect { Effect(operation: nil) }

    /// An async operation; `send` feeds actions back into the store.
    static func run(_ operation: @escaping @Sendable (Send<Action>) async -> Void) -> Effect {
        Effect(operation: operation)
    }
}

/// Sends actions from an effect back into the store, on the main actor.
struct Send<Action: Sendable>: Sendable {
    let send: @MainActor @Sendable (Action) -> Void

    @MainActor
    func callAsFunction(_ action: Action) { send(action) }
}

/// Evolves a state by an action and says what effect to run.
protocol Reducer<State, Action> {
    associatedtype State
    associatedtype Action: Sendable
    func reduce(into state: inout State, action: Action) -> Effect<Action>
}

/// A reducer from a closure.
struct Reduce<State, Action: Sendable>: Reducer, Sendable {
    let body: @Sendable (inout State, Action) -> Effect<Action>

    init(_ body: @escaping @Sendable (inout State, Action) -> Effect<Action>) { self.body = body }

    func reduce(into state: inout State, action: Action) -> Effect<Action> { body(&state, action) }
}

/// The store: holds the state, runs the reducer on `send` and the effects it returns; observers see every change.
@MainActor
final class ComposableStore<State, Action: Sendable> {
    private(set) var state: State
    private let reducer: any Reducer<State, Action>
    private var effects: [Task<Void, Never>] = []
    var onChange: (State) -> Void = { _ in }

    init(initialState: State, reducer: some Reducer<State, Action>) {
        self.state = initialState
        self.reducer = reducer
    }

    func send(_ action: Action) {
        let effect = reducer.reduce(into: &state, action: action)
        onChange(state)
        if let operation = effect.operation {
            let send = Send<Action> { [weak self] action in self?.send(action) }
            effects.append(Task { await operation(send) })
        }
    }

    /// Waits until every effect started so far (and those they started) has finished.
    func settle() async {
        while let task = effects.popLast() { await task.value }
    }
}
