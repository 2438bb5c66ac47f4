// A stand-in for The Composable Architecture's public shape, written here (no code of that framework) so that the
// TCA snippet of docs/INTEGRATIONS.md compiles verbatim: its `import ComposableArchitecture` is mapped to this
// module (`-module-alias` in Package.swift). Only what the snippet uses, with TCA's names and signatures.

/// Work a reducer asks the store to do after it returns (here: nothing, or an operation run at once).
public struct Effect<Action> {
    let operation: ((Action) -> Void) -> Void

    /// No effect.
    public static var none: Effect { Effect { _ in } }
}

/// Evolves a state by an action: either by `reduce(into:action:)` or by its `body`, other reducers run in order.
public protocol Reducer<State, Action> {
    associatedtype State
    associatedtype Action
    associatedtype Body

    /// Evolves `state` by `action` and says what effect to run.
    func reduce(into state: inout State, action: Action) -> Effect<Action>

    /// The reducers this one is made of, run one after the other.
    @ReducerBuilder<State, Action> var body: Body { get }
}

/// Builds a `body` from the reducers listed in it, run in order (TCA's `ReducerBuilder`).
@resultBuilder
public enum ReducerBuilder<State, Action> {
    /// One reducer of the body, of the body's state and action (which lets `Reduce { … }` infer them).
    public static func buildExpression<R: Reducer>(_ expression: R) -> R where R.State == State, R.Action == Action {
        expression
    }

    /// The first reducer of a body.
    public static func buildPartialBlock<R: Reducer>(first: R) -> R where R.State == State, R.Action == Action {
        first
    }

    /// The reducers so far, then `next`: run one after the other, their effects too.
    public static func buildPartialBlock<R0: Reducer, R1: Reducer>(accumulated: R0, next: R1) -> Reduce<State, Action>
    where R0.State == State, R0.Action == Action, R1.State == State, R1.Action == Action {
        Reduce { state, action in
            let first = accumulated.reduce(into: &state, action: action)
            let second = next.reduce(into: &state, action: action)
            return Effect { send in
                first.operation(send)
                second.operation(send)
            }
        }
    }
}

extension Reducer where Body: Reducer, Body.State == State, Body.Action == Action {
    /// A reducer with a body reduces through it.
    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        body.reduce(into: &state, action: action)
    }
}

extension Reducer where Body == Never {
    /// A reducer that implements `reduce(into:action:)` has no body.
    public var body: Never { fatalError("\(Self.self) has no body") }
}

/// A reducer from a closure.
public struct Reduce<State, Action>: Reducer {
    let run: (inout State, Action) -> Effect<Action>

    /// The reducer that runs `reduce`.
    public init(_ reduce: @escaping (inout State, Action) -> Effect<Action>) { run = reduce }

    public func reduce(into state: inout State, action: Action) -> Effect<Action> { run(&state, action) }
}

/// What `send` returns (TCA: a handle on the effects it started).
public struct StoreTask: Sendable {}

/// The store: the state, changed only by sending actions through the reducer. Main actor.
@MainActor
public final class Store<State, Action> {
    /// The current state (TCA: read it directly, observed through `@ObservableState`).
    public private(set) var state: State
    private let reduce: (inout State, Action) -> Effect<Action>

    /// A store running `reducer()` from `initialState`.
    public init<R: Reducer>(initialState: State, reducer: () -> R) where R.State == State, R.Action == Action {
        state = initialState
        let reducer = reducer()
        reduce = { reducer.reduce(into: &$0, action: $1) }
    }

    /// Runs `action` through the reducer, then its effect.
    @discardableResult
    public func send(_ action: Action) -> StoreTask {
        let effect = reduce(&state, action)
        effect.operation { self.send($0) }
        return StoreTask()
    }

}

/// A reducer of `R`'s state and actions (`some ReducerOf<Self>` in a feature's `body`).
public typealias ReducerOf<R: Reducer> = Reducer<R.State, R.Action>

/// The store of a reducer's state and actions.
public typealias StoreOf<R: Reducer> = Store<R.State, R.Action>
