/// Finds `==` for a generic type at run time, so that subscriptions deduplicate `Equatable` values without a
/// separate overload for every subscribe variant.
///
/// Threading: stateless.
enum EquatableWitness {
    /// `==` for `Value` when it is `Equatable`, otherwise nil. Looked up once per subscription.
    static func equality<Value>(for type: Value.Type) -> (@MainActor (Value, Value) -> Bool)? {
        guard let equatable = Value.self as? any Equatable.Type else { return nil }
        return makeEquality(equatable, as: Value.self)
    }

    private static func makeEquality<E: Equatable, Value>(
        _ equatable: E.Type, as value: Value.Type
    ) -> @MainActor (Value, Value) -> Bool {
        { lhs, rhs in (lhs as! E) == (rhs as! E) }
    }
}
