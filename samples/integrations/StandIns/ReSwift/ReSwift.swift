// A stand-in for ReSwift's public shape, written here (no code of that framework) so that the ReSwift snippet of
// docs/INTEGRATIONS.md compiles verbatim: its `import ReSwift` is mapped to this module (`-module-alias` in
// Package.swift). Only what the snippet uses, with ReSwift's names and signatures.

/// Any action: the store does not know their types.
public protocol Action {}

/// Dispatches an action through the store's middleware and reducer.
public typealias DispatchFunction = (Action) -> Void

/// Computes the next state; `nil` state on the store's first call.
public typealias Reducer<ReducerStateType> = (_ action: Action, _ state: ReducerStateType?) -> ReducerStateType

/// Given the store's `dispatch` and `getState` and the next link, returns this link.
public typealias Middleware<State> = (@escaping DispatchFunction, @escaping () -> State?)
    -> (@escaping DispatchFunction) -> DispatchFunction

/// The action the store reduces once to get its first state when none is given.
public struct ReSwiftInit: Action {}

/// The store: one state, replaced by the reducer on every action, after the middleware chain.
open class Store<State> {
    /// The current state.
    public private(set) var state: State!
    private let reducer: Reducer<State>
    private var dispatchFunction: DispatchFunction = { _ in }

    /// A store reducing with `reducer` from `state` (or from the reducer's first state), through `middleware`.
    public init(reducer: @escaping Reducer<State>, state: State?, middleware: [Middleware<State>] = []) {
        self.reducer = reducer
        self.state = state ?? reducer(ReSwiftInit(), nil)
        let reduce: DispatchFunction = { [unowned self] action in self.state = self.reducer(action, self.state) }
        dispatchFunction = middleware.reversed().reduce(reduce) { next, link in
            link({ [unowned self] in self.dispatch($0) }, { [weak self] in self?.state })(next)
        }
    }

    /// Dispatches `action`.
    open func dispatch(_ action: Action) { dispatchFunction(action) }
}
