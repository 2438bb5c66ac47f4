// A stand-in for SwiftRex 0.8.12's public shape (the `SwiftRex` module of that release: `ReduxStoreBase`,
// `MiddlewareProtocol`, `IO`, `Reducer`, the reactive wrappers), written here (no code of that framework) so that
// the SwiftRex snippet of docs/INTEGRATIONS.md compiles verbatim: its `import SwiftRex` is mapped to this module
// (`-module-alias` in Package.swift). Only what the snippet and its app use, with 0.8.12's names and signatures;
// the behaviour is the simplest that fits (one thread, the main thread; dispatch runs at once).

/// The entity that created and dispatched an action.
public struct ActionSource: Codable, Equatable {
    /// The file that dispatched the action.
    public let file: String
    /// The function that dispatched the action.
    public let function: String
    /// The line that dispatched the action.
    public let line: UInt
    /// Extra information about the dispatch.
    public let info: String?

    /// A source.
    public init(file: String, function: String, line: UInt, info: String?) {
        self.file = file
        self.function = function
        self.line = line
        self.info = info
    }
}

/// An action with where it was dispatched from.
public struct DispatchedAction<ActionType> {
    /// The action.
    public let action: ActionType
    /// Where it was dispatched from.
    public let dispatcher: ActionSource

    /// An action dispatched by `dispatcher`.
    public init(_ action: ActionType, dispatcher: ActionSource) {
        self.action = action
        self.dispatcher = dispatcher
    }
}

/// Reads the store's state now.
public typealias GetState<StateType> = () -> StateType

/// Changes a state in place for an action.
public typealias MutableReduceFunction<ActionType, StateType> = (ActionType, inout StateType) -> Void

/// Something actions can be dispatched to (a store, or a middleware's output).
public protocol ActionHandler {
    /// The actions it handles.
    associatedtype ActionType

    /// Handles an action with its source.
    func dispatch(_ dispatchedAction: DispatchedAction<ActionType>)
}

extension ActionHandler {
    /// Dispatches `action`, its source being the caller.
    public func dispatch(_ action: ActionType, file: String = #file, function: String = #function,
                         line: UInt = #line, info: String? = nil) {
        dispatch(action, from: ActionSource(file: file, function: function, line: line, info: info))
    }

    /// Dispatches `action` from `dispatcher`.
    public func dispatch(_ action: ActionType, from dispatcher: ActionSource) {
        dispatch(DispatchedAction(action, dispatcher: dispatcher))
    }
}

/// A type-erased ``ActionHandler``.
public struct AnyActionHandler<ActionType>: ActionHandler {
    private let handle: (DispatchedAction<ActionType>) -> Void

    init(_ handle: @escaping (DispatchedAction<ActionType>) -> Void) { self.handle = handle }

    /// Hands the action to the wrapped handler.
    public func dispatch(_ dispatchedAction: DispatchedAction<ActionType>) { handle(dispatchedAction) }
}

/// Work a middleware asks for, run after the reducer; it may dispatch actions through its argument.
public struct IO<OutputActionType> {
    private let runIO: (AnyActionHandler<OutputActionType>) -> Void

    /// Work that may dispatch actions through its argument.
    public init(_ run: @escaping (AnyActionHandler<OutputActionType>) -> Void) { runIO = run }

    /// No work.
    public static func pure() -> IO { IO { _ in } }

    /// Runs the work, dispatching to `output`.
    public func run(_ output: AnyActionHandler<OutputActionType>) { runIO(output) }
}

/// Sees every action with a way to read the state; what it returns runs after the reducer.
public protocol MiddlewareProtocol {
    /// The actions it handles.
    associatedtype InputActionType
    /// The actions its work dispatches.
    associatedtype OutputActionType
    /// The state it reads.
    associatedtype StateType

    /// Handles `action`; `state` reads the state (before the reducer here, after it inside the returned ``IO``).
    func handle(action: InputActionType, from dispatcher: ActionSource, state: @escaping GetState<StateType>)
        -> IO<OutputActionType>
}

infix operator <>: AdditionPrecedence

/// Evolves a state by an action, in place; reducers compose with `<>`.
public struct Reducer<ActionType, StateType> {
    /// Applies the reducer.
    public let reduce: MutableReduceFunction<ActionType, StateType>

    private init(reduce: @escaping MutableReduceFunction<ActionType, StateType>) { self.reduce = reduce }

    /// A reducer from a closure.
    public static func reduce(_ reduce: @escaping MutableReduceFunction<ActionType, StateType>) -> Reducer {
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

/// A cancellable subscription.
public protocol Subscription {
    /// Stops the subscription.
    func unsubscribe()
}

/// Receives values and the completion of a ``PublisherType``.
public struct SubscriberType<Element, ErrorType: Error> {
    /// Called with each value.
    public let onValue: (Element) -> Void
    /// Called once at the end, with the error if it failed.
    public let onCompleted: (ErrorType?) -> Void

    /// A subscriber; a missing closure ignores what it would get.
    public init(onValue: ((Element) -> Void)? = nil, onCompleted: ((ErrorType?) -> Void)? = nil) {
        self.onValue = onValue ?? { _ in }
        self.onCompleted = onCompleted ?? { _ in }
    }
}

/// A source of values that subscribers subscribe to (a wrapper around the app's reactive framework).
public struct PublisherType<Element, ErrorType: Error> {
    /// Subscribes a subscriber.
    public let subscribe: (SubscriberType<Element, ErrorType>) -> Subscription

    /// A publisher from its subscribe function.
    public init(subscribe: @escaping (SubscriberType<Element, ErrorType>) -> Subscription) {
        self.subscribe = subscribe
    }
}

/// A publisher that cannot fail.
public typealias UnfailablePublisherType<Element> = PublisherType<Element, Never>

/// A subject holding a current value, which it replays to each new subscriber: where a store keeps its state.
public struct ReplayLastSubjectType<Element, ErrorType: Error> {
    /// Publishes the value and each new one.
    public let publisher: PublisherType<Element, ErrorType>
    /// Takes a new value.
    public let subscriber: SubscriberType<Element, ErrorType>
    /// The current value.
    public var value: () -> Element

    /// A subject from its publisher, subscriber and current-value reader.
    public init(publisher: PublisherType<Element, ErrorType>, subscriber: SubscriberType<Element, ErrorType>,
                value: @escaping () -> Element) {
        self.publisher = publisher
        self.subscriber = subscriber
        self.value = value
    }
}

/// A replaying subject that cannot fail.
public typealias UnfailableReplayLastSubjectType<Element> = ReplayLastSubjectType<Element, Never>

/// Something whose state can be observed.
public protocol StateProvider {
    /// The state.
    associatedtype StateType
    /// Publishes the state and each new one.
    var statePublisher: UnfailablePublisherType<StateType> { get }
}

/// The store: its state lives in `subject`, changed by the reducer; the middleware sees every action first and its
/// work runs after the reducer. It has no `state` property: read the subject, or subscribe to `statePublisher`.
open class ReduxStoreBase<ActionType, StateType>: ActionHandler, StateProvider {
    private let subject: UnfailableReplayLastSubjectType<StateType>
    private let reducer: Reducer<ActionType, StateType>
    private let handle: (ActionType, ActionSource, @escaping GetState<StateType>) -> IO<ActionType>

    /// Publishes the state and each new one.
    public var statePublisher: UnfailablePublisherType<StateType> { subject.publisher }

    /// A store keeping its state in `subject` (which holds the initial state), reducing with `reducer`, with
    /// `middleware` seeing every action.
    public init<M: MiddlewareProtocol>(subject: UnfailableReplayLastSubjectType<StateType>,
                                       reducer: Reducer<ActionType, StateType>, middleware: M)
    where M.InputActionType == ActionType, M.InputActionType == M.OutputActionType, M.StateType == StateType {
        self.subject = subject
        self.reducer = reducer
        handle = middleware.handle(action:from:state:)
    }

    /// Runs the action through the middleware and the reducer, publishes the new state, then runs the middleware's
    /// work (whose actions are dispatched the same way).
    public func dispatch(_ dispatchedAction: DispatchedAction<ActionType>) {
        let subject = subject
        let io = handle(dispatchedAction.action, dispatchedAction.dispatcher, { subject.value() })
        var state = subject.value()
        reducer.reduce(dispatchedAction.action, &state)
        subject.subscriber.onValue(state)
        io.run(AnyActionHandler { [weak self] in self?.dispatch($0) })
    }
}
