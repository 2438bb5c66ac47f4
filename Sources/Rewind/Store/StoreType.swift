/// Anything that acts as a store: it has a ``state``, accepts actions through `dispatch(_:file:line:)`, and
/// delivers state to subscribers. ``Store`` owns its state; ``StoreProjection`` and ``ModuleStore`` present
/// another store under different types.
///
/// The `subscribe` conveniences, ``projection(action:state:)`` and the rest are provided for every conformer.
///
/// Threading: main actor.
@MainActor
public protocol StoreType<State, Action>: AnyObject {
    /// The state type this store presents.
    associatedtype State
    /// The action type this store accepts.
    associatedtype Action

    /// The current, committed state.
    var state: State { get }

    /// Dispatches `action`, recording `source` as where it came from. Call sites normally use
    /// `dispatch(_:file:line:)`, which fills `source` in.
    func dispatch(_ action: Action, source: SourceLocation)

    /// Starts a subscription: delivers the current selected value at once, then every change.
    @discardableResult
    func subscribe<Value>(_ request: SubscriptionRequest<State, Value>) -> SubscriptionToken
}
