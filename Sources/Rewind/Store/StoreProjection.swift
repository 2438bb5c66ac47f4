/// A store-like view of another store with its own `State` and `Action`, owning no state (see
/// ``StoreType/projection(action:state:)``).
///
/// Its ``state`` is computed from the parent's current state on every read; its actions are mapped up into the
/// parent's actions (an action mapped to nil is dropped); its subscriptions are subscriptions to the parent,
/// selecting through the state mapping and deduplicated by the root store's rules. Projections of projections work.
/// A projection keeps its parent alive.
///
/// Threading: main actor, like the store it projects.
@MainActor
public final class StoreProjection<State, Action>: StoreType {
    private let source: any ProjectionSource<State, Action>

    init<Parent: StoreType>(
        parent: Parent,
        action: @escaping @MainActor (Action) -> Parent.Action?,
        state: @escaping @MainActor (Parent.State) -> State
    ) {
        self.source = MappedProjectionSource(parent: parent, action: action, state: state)
    }

    /// The parent's current state, mapped.
    public var state: State {
        source.state
    }

    /// Maps `action` into the parent's action type and dispatches it there; drops it when the mapping returns nil.
    public func dispatch(_ action: Action, source location: SourceLocation) {
        source.dispatch(action, source: location)
    }

    /// Dispatches `action` from the call site (see ``dispatch(_:source:)``).
    public func dispatch(_ action: Action, file: StaticString = #fileID, line: UInt = #line) {
        source.dispatch(action, source: SourceLocation(file: file, line: line))
    }

    /// Subscribes to the parent, selecting through this projection's state mapping.
    @discardableResult
    public func subscribe<Value>(_ request: SubscriptionRequest<State, Value>) -> SubscriptionToken {
        source.subscribe(request)
    }
}

/// The parent side of a projection, with the parent's types hidden.
@MainActor
private protocol ProjectionSource<State, Action>: AnyObject {
    associatedtype State
    associatedtype Action
    var state: State { get }
    func dispatch(_ action: Action, source: SourceLocation)
    func subscribe<Value>(_ request: SubscriptionRequest<State, Value>) -> SubscriptionToken
}

/// A parent store and the two mappings of a projection.
@MainActor
private final class MappedProjectionSource<Parent: StoreType, State, Action>: ProjectionSource {
    let parent: Parent
    let mapAction: @MainActor (Action) -> Parent.Action?
    let mapState: @MainActor (Parent.State) -> State

    init(parent: Parent, action: @escaping @MainActor (Action) -> Parent.Action?,
         state: @escaping @MainActor (Parent.State) -> State) {
        self.parent = parent
        self.mapAction = action
        self.mapState = state
    }

    var state: State {
        mapState(parent.state)
    }

    func dispatch(_ action: Action, source: SourceLocation) {
        guard let parentAction = mapAction(action) else { return }
        parent.dispatch(parentAction, source: source)
    }

    func subscribe<Value>(_ request: SubscriptionRequest<State, Value>) -> SubscriptionToken {
        parent.subscribe(request.mapState(mapState))
    }
}
