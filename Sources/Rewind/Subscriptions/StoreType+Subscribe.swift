extension StoreType {
    /// Subscribes to the whole state. The current state is delivered at once, then each committed state; when
    /// `State` is `Equatable`, equal states are skipped unless `deduplicate` (default: the store's setting) says
    /// otherwise. Ends when the token is cancelled.
    @inlinable
    @discardableResult
    public func subscribe(
        deduplicate: Bool? = nil,
        _ receive: @escaping @MainActor (State) -> Void
    ) -> SubscriptionToken {
        subscribe(SubscriptionRequest(select: { $0 }, deduplication: .from(deduplicate), receive: receive))
    }

    /// Subscribes to a slice of the state, selected by a key path (`to: \.todos`) or a closure
    /// (`to: { $0.todos.count }`). The current value is delivered at once, then each change; `Equatable` values
    /// are deduplicated unless `deduplicate` (default: the store's setting) says otherwise.
    @inlinable
    @discardableResult
    public func subscribe<Value>(
        to select: @escaping @MainActor (State) -> Value,
        deduplicate: Bool? = nil,
        _ receive: @escaping @MainActor (Value) -> Void
    ) -> SubscriptionToken {
        subscribe(SubscriptionRequest(select: select, deduplication: .from(deduplicate), receive: receive))
    }

    /// Subscribes to a slice of the state, skipping a value when `isDuplicate(last, new)` is true.
    @inlinable
    @discardableResult
    public func subscribe<Value>(
        to select: @escaping @MainActor (State) -> Value,
        removeDuplicates isDuplicate: @escaping @MainActor (Value, Value) -> Bool,
        _ receive: @escaping @MainActor (Value) -> Void
    ) -> SubscriptionToken {
        subscribe(SubscriptionRequest(select: select, deduplication: .by(isDuplicate), receive: receive))
    }

    /// Subscribes `owner` to the whole state. `owner` is held weakly: the subscription ends by itself when it is
    /// deallocated (or when the token is cancelled).
    @inlinable
    @discardableResult
    public func subscribe<Owner: AnyObject>(
        _ owner: Owner,
        deduplicate: Bool? = nil,
        _ receive: @escaping @MainActor (Owner, State) -> Void
    ) -> SubscriptionToken {
        subscribe(SubscriptionRequest(owner: owner, select: { $0 }, deduplication: .from(deduplicate),
                                      receive: receive))
    }

    /// Subscribes `owner` to a slice of the state. `owner` is held weakly: the subscription ends by itself when it
    /// is deallocated (or when the token is cancelled).
    @inlinable
    @discardableResult
    public func subscribe<Owner: AnyObject, Value>(
        _ owner: Owner,
        to select: @escaping @MainActor (State) -> Value,
        deduplicate: Bool? = nil,
        _ receive: @escaping @MainActor (Owner, Value) -> Void
    ) -> SubscriptionToken {
        subscribe(SubscriptionRequest(owner: owner, select: select, deduplication: .from(deduplicate),
                                      receive: receive))
    }
}

extension StoreType where State: Equatable {
    /// Subscribes to the whole `Equatable` state (see the unconstrained overload); equal states are compared with
    /// their own `==`.
    @inlinable
    @discardableResult
    public func subscribe(
        deduplicate: Bool? = nil,
        _ receive: @escaping @MainActor (State) -> Void
    ) -> SubscriptionToken {
        subscribe(SubscriptionRequest(select: { $0 }, deduplication: .equatable(deduplicate), receive: receive))
    }

    /// Subscribes `owner` to the whole `Equatable` state (see the unconstrained overload).
    @inlinable
    @discardableResult
    public func subscribe<Owner: AnyObject>(
        _ owner: Owner,
        deduplicate: Bool? = nil,
        _ receive: @escaping @MainActor (Owner, State) -> Void
    ) -> SubscriptionToken {
        subscribe(SubscriptionRequest(owner: owner, select: { $0 }, deduplication: .equatable(deduplicate),
                                      receive: receive))
    }
}

extension StoreType {
    /// Subscribes to an `Equatable` slice of the state (see the unconstrained overload); equal values are compared
    /// with their own `==`.
    @inlinable
    @discardableResult
    public func subscribe<Value: Equatable>(
        to select: @escaping @MainActor (State) -> Value,
        deduplicate: Bool? = nil,
        _ receive: @escaping @MainActor (Value) -> Void
    ) -> SubscriptionToken {
        subscribe(SubscriptionRequest(select: select, deduplication: .equatable(deduplicate), receive: receive))
    }

    /// Subscribes `owner` to an `Equatable` slice of the state (see the unconstrained overload).
    @inlinable
    @discardableResult
    public func subscribe<Owner: AnyObject, Value: Equatable>(
        _ owner: Owner,
        to select: @escaping @MainActor (State) -> Value,
        deduplicate: Bool? = nil,
        _ receive: @escaping @MainActor (Owner, Value) -> Void
    ) -> SubscriptionToken {
        subscribe(SubscriptionRequest(owner: owner, select: select, deduplication: .equatable(deduplicate),
                                      receive: receive))
    }
}
