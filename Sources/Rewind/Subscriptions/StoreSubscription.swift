/// One active subscription inside a store: selects, deduplicates and delivers values of the store's state.
///
/// Threading: main actor; owned by the store's subscriber list.
@MainActor
@usableFromInline
final class StoreSubscription<State> {
    /// False once cancelled or once its owner is gone; an inactive subscription is skipped and then removed.
    @usableFromInline
    var isActive = true
    /// The token handed to the subscriber, marked ended when the subscription ends by itself.
    @usableFromInline
    weak var token: SubscriptionToken?

    @usableFromInline
    let update: (State) -> Bool

    @inlinable
    init<Value>(_ request: SubscriptionRequest<State, Value>, storeDeduplicates: Bool) {
        let select = request.select
        let deliver = request.deliver
        if let isDuplicate = request.deduplication.resolved(storeDeduplicates: storeDeduplicates) {
            let last = LastValue<Value>()
            let isAlive = request.isAlive
            update = { state in
                let value = select(state)
                if let previous = last.value, isDuplicate(previous, value) {
                    return isAlive()
                }
                last.value = value
                return deliver(value)
            }
        } else {
            update = { state in deliver(select(state)) }
        }
    }

    /// Delivers the value selected from `state` unless it is a duplicate. Returns false when the subscriber is gone.
    @inlinable
    func receive(_ state: State) -> Bool {
        update(state)
    }
}

/// The last value a deduplicating subscription delivered.
///
/// Threading: only touched by its subscription's closure, on the main actor.
@MainActor
@usableFromInline
final class LastValue<Value> {
    @usableFromInline
    var value: Value?

    @inlinable
    init() {}
}
