// A stand-in for SwiftRex's public shape, written here (no code of that framework) so that the SwiftRex snippet of
// docs/INTEGRATIONS.md compiles verbatim: its `import SwiftRex` is mapped to this module (`-module-alias` in
// Package.swift). Only what the snippet uses, with SwiftRex's names and signatures.

/// Where an action was dispatched.
public struct ActionSource: Sendable {
    /// The file, function and line.
    public let file: String, function: String, line: UInt
    /// A source.
    public init(file: String = #file, function: String = #function, line: UInt = #line) {
        self.file = file
        self.function = function
        self.line = line
    }
}

/// Reads the store's state now.
public typealias GetState<StateType> = () -> StateType

/// Receives the actions an `IO` dispatches.
public struct AnyActionHandler<ActionType> {
    /// Dispatches an action.
    public let dispatch: (ActionType, ActionSource) -> Void
}

/// Work a middleware asks for, run after the reducer.
public struct IO<OutputActionType> {
    let run: (AnyActionHandler<OutputActionType>) -> Void

    /// Work that may dispatch actions through its argument.
    public init(_ run: @escaping (AnyActionHandler<OutputActionType>) -> Void) { self.run = run }

    /// No work.
    public static func pure() -> IO { IO { _ in } }
}

/// Sees every action with a way to read the state; what it returns runs after the reducer.
public protocol MiddlewareProtocol {
    associatedtype InputActionType
    associatedtype OutputActionType
    associatedtype StateType

    /// Handles `action`.
    func handle(action: InputActionType, from dispatcher: ActionSource, state: @escaping GetState<StateType>)
        -> IO<OutputActionType>
}

infix operator <>: AdditionPrecedence

/// Evolves a state by an action; reducers compose with `<>`.
public struct Reducer<ActionType, StateType> {
    /// Applies the reducer.
    public let reduce: (ActionType, inout StateType) -> Void

    /// A reducer from a closure.
    public static func reduce(_ reduce: @escaping (ActionType, inout StateType) -> Void) -> Reducer {
        Reducer(reduce: reduce)
    }

    /// `lhs`, then `rhs`.
    public static func <> (lhs: Reducer, rhs: Reducer) -> Reducer {
        Reducer { action, state in
            lhs.reduce(action, &state)
            rhs.reduce(action, &state)
        }
    }
}

/// The store: the state, changed by the reducer; the middleware sees every action. One thread (the main thread).
public final class ReduxStoreBase<ActionType, StateType, M: MiddlewareProtocol>
where M.InputActionType == ActionType, M.OutputActionType == ActionType, M.StateType == StateType {
    /// The current state.
    public private(set) var state: StateType
    private let reducer: Reducer<ActionType, StateType>
    private let middleware: M

    /// A store.
    public init(reducer: Reducer<ActionType, StateType>, middleware: M, initialState: StateType) {
        self.reducer = reducer
        self.middleware = middleware
        state = initialState
    }

    /// Runs `action` through the middleware and the reducer, then the middleware's work.
    public func dispatch(_ action: ActionType, from source: ActionSource = ActionSource()) {
        let io = middleware.handle(action: action, from: source, state: { [unowned self] in self.state })
        reducer.reduce(action, &state)
        io.run(AnyActionHandler { [weak self] action, source in self?.dispatch(action, from: source) })
    }
}
