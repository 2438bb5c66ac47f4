/// What a middleware gets from its store: `getState` (``state``), `dispatch` through the full chain, and the
/// time-travel operations tooling needs.
///
/// Holds the store weakly: once the store is gone, ``state`` is nil and the operations do nothing.
///
/// Threading: main actor, like the store.
@MainActor
public struct MiddlewareContext<State, Action> {
    @usableFromInline
    weak var store: Store<State, Action>?

    @usableFromInline
    init(store: Store<State, Action>) {
        self.store = store
    }

    /// The store's current (committed) state; nil once the store is gone. This is `getState`.
    @inlinable
    public var state: State? { store?.state }

    /// Dispatches `action` through the full middleware chain. While the store is processing an action (always, when
    /// called from inside a middleware) it is queued FIFO and processed after the current one.
    public func dispatch(_ action: Action, file: StaticString = #fileID, line: UInt = #line) {
        store?.dispatch(action, file: file, line: line)
    }

    /// Tooling (the inspector's *jump*): replaces the state without running reducers or middleware; subscribers are
    /// notified. While the store is processing an action, the replacement is queued behind it.
    public func replaceState(_ state: State) {
        store?.replaceState(state)
    }

    /// Tooling (the inspector's *replay*, *skip* and *verify*): sets the state to `initial`, then runs each action
    /// through the reducer only (no middleware), discarding every effect (effects are muted: their results are
    /// already in the recording). `each` is called with the index of the action and the state after it.
    /// Subscribers are notified once, at the end.
    ///
    /// Returns the final state; nil when the store is gone, or when called while the store is processing an action
    /// (reported as a ``ProgrammingError``).
    @discardableResult
    public func replay(from initial: State, actions: [Action], each: (Int, State) -> Void) -> State? {
        store?.replay(from: initial, actions: actions, each: each)
    }
}
