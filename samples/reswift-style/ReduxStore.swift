// A store shaped like ReSwift's, written here from its public shape (no code of that framework): untyped actions,
// a reducer `(Action, State?) -> State`, and middleware `(dispatch, getState) -> (next) -> (action)`.

/// Any action: the store does not know their types. Not `Sendable`, as in ReSwift: code copied from this sample
/// must compile against the real framework.
protocol Action {}

/// Dispatches an action through the store's middleware and reducer.
typealias DispatchFunction = (any Action) -> Void

/// Computes the next state. `nil` state: the store's first call.
typealias Reducer<State> = (_ action: any Action, _ state: State?) -> State

/// Sees every action before the reducer: given the store's `dispatch` and `getState`, and the next link, returns
/// this link.
typealias Middleware<State> = (_ dispatch: @escaping DispatchFunction, _ getState: @escaping () -> State?)
    -> (_ next: @escaping DispatchFunction) -> DispatchFunction

/// The store: one state, replaced by the reducer on every action; subscribers are told about every new state.
///
/// Threading: one thread (here the main thread); not `Sendable`.
final class ReduxStore<State> {
    private(set) var state: State
    private let reducer: Reducer<State>
    private var subscribers: [(State) -> Void] = []
    private var dispatchFunction: DispatchFunction = { _ in }

    init(reducer: @escaping Reducer<State>, state: State?, middleware: [Middleware<State>] = []) {
        self.reducer = reducer
        self.state = state ?? reducer(InitialAction(), nil)
        let reduce: DispatchFunction = { [unowned self] action in
            self.state = self.reducer(action, self.state)
            for subscriber in self.subscribers { subscriber(self.state) }
        }
        dispatchFunction = middleware.reversed().reduce(reduce) { next, link in
            link({ [unowned self] action in self.dispatch(action) }, { [weak self] in self?.state })(next)
        }
    }

    func dispatch(_ action: any Action) {
        dispatchFunction(action)
    }

    func subscribe(_ subscriber: @escaping (State) -> Void) {
        subscribers.append(subscriber)
    }
}

/// The action the store reduces once to get its first state when none is given.
struct InitialAction: Action {}
