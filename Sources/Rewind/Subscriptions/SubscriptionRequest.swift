/// Everything a store needs to run one subscription: how to select the value from the state, how to deduplicate
/// it, and whom to deliver it to (a closure, or a closure bound weakly to an owner object).
///
/// Usually built for you by the `subscribe` conveniences on ``StoreType``; build one directly to implement
/// ``StoreType`` yourself.
///
/// Threading: a value; all of its closures run on the main actor.
public struct SubscriptionRequest<State, Value>: Sendable {
    @usableFromInline
    let select: @MainActor (State) -> Value
    @usableFromInline
    let deduplication: Deduplication<Value>
    /// Delivers a value; returns false when the owner is gone (the subscription then ends).
    @usableFromInline
    let deliver: @MainActor (Value) -> Bool
    /// False once the owner is gone.
    @usableFromInline
    let isAlive: @MainActor () -> Bool

    /// A subscription delivering `select(state)` to `receive`.
    @inlinable
    public init(
        select: @escaping @MainActor (State) -> Value,
        deduplication: Deduplication<Value> = .storeDefault,
        receive: @escaping @MainActor (Value) -> Void
    ) {
        self.select = select
        self.deduplication = deduplication
        self.deliver = { value in
            receive(value)
            return true
        }
        self.isAlive = { true }
    }

    /// A subscription delivering `select(state)` to `receive` together with `owner`, held weakly: it ends by
    /// itself when `owner` is deallocated.
    @inlinable
    public init<Owner: AnyObject>(
        owner: Owner,
        select: @escaping @MainActor (State) -> Value,
        deduplication: Deduplication<Value> = .storeDefault,
        receive: @escaping @MainActor (Owner, Value) -> Void
    ) {
        let reference = WeakReference(owner)
        self.select = select
        self.deduplication = deduplication
        self.deliver = { value in
            guard let owner = reference.object else { return false }
            receive(owner, value)
            return true
        }
        self.isAlive = { reference.object != nil }
    }

    private init(
        select: @escaping @MainActor (State) -> Value,
        deduplication: Deduplication<Value>,
        deliver: @escaping @MainActor (Value) -> Bool,
        isAlive: @escaping @MainActor () -> Bool
    ) {
        self.select = select
        self.deduplication = deduplication
        self.deliver = deliver
        self.isAlive = isAlive
    }

    /// The same subscription, reading its state through `transform` from a parent state (used by projections).
    func mapState<Parent>(_ transform: @escaping @MainActor (Parent) -> State) -> SubscriptionRequest<Parent, Value> {
        let select = self.select
        return SubscriptionRequest<Parent, Value>(
            select: { parent in select(transform(parent)) },
            deduplication: deduplication,
            deliver: deliver,
            isAlive: isAlive
        )
    }
}

/// A weak reference that can be captured by main-actor closures.
///
/// Threading: `@unchecked Sendable` because the reference is only read on the main actor (by subscription
/// closures, which are all main-actor isolated) and a weak load is itself atomic.
@usableFromInline
final class WeakReference<Object: AnyObject>: @unchecked Sendable {
    @usableFromInline
    weak var object: Object?

    @inlinable
    init(_ object: Object) {
        self.object = object
    }
}
