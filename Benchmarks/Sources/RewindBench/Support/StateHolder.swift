/// Keeps a reference to a value where the optimizer cannot drop it: what the inspector's outbox does to a state
/// (so the store's next change to it copies the changed path).
///
/// Threading: main actor, like the store whose states it holds.
@MainActor
final class StateHolder<Value> {
    /// The value held.
    var value: Value?
}
