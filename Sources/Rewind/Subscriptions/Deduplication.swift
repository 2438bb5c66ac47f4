/// How a subscription decides that a newly selected value is the same as the last one delivered, and skips it.
///
/// Threading: a value; its comparison closure runs on the main actor.
public struct Deduplication<Value>: Sendable {
    @usableFromInline
    enum Kind: Sendable {
        case storeDefault
        case never
        case ifEquatable
        case custom(@MainActor (Value, Value) -> Bool)
        /// `==` known statically: used when the store deduplicates, or always when `forced`.
        case equality(@MainActor (Value, Value) -> Bool, forced: Bool)
    }

    @usableFromInline
    let kind: Kind

    @inlinable
    init(kind: Kind) {
        self.kind = kind
    }

    /// Follow the store's ``StoreConfiguration/deduplicatesEquatableValues``: skip equal values when `Value` is
    /// `Equatable` and the store deduplicates (the default).
    public static var storeDefault: Deduplication { Deduplication(kind: .storeDefault) }

    /// Deliver every committed state, even when the selected value did not change.
    public static var never: Deduplication { Deduplication(kind: .never) }

    /// Skip a value equal (`==`) to the last one delivered when `Value` is `Equatable`, whatever the store's
    /// default; for other types deliver every value.
    public static var ifEquatable: Deduplication { Deduplication(kind: .ifEquatable) }

    /// Skip a value when `isDuplicate(last, new)` returns true.
    public static func by(_ isDuplicate: @escaping @MainActor (Value, Value) -> Bool) -> Deduplication {
        Deduplication(kind: .custom(isDuplicate))
    }

    /// The per-subscription override used by the `deduplicate:` parameters: `nil` is the store default.
    @inlinable
    static func from(_ deduplicate: Bool?) -> Deduplication {
        switch deduplicate {
        case nil: return .storeDefault
        case true?: return .ifEquatable
        case false?: return .never
        }
    }

    /// The comparison to use, given the store's default; `nil` delivers every value.
    @MainActor
    @usableFromInline
    func resolved(storeDeduplicates: Bool) -> (@MainActor (Value, Value) -> Bool)? {
        switch kind {
        case .never:
            return nil
        case .custom(let isDuplicate):
            return isDuplicate
        case .ifEquatable:
            return EquatableWitness.equality(for: Value.self)
        case .storeDefault:
            return storeDeduplicates ? EquatableWitness.equality(for: Value.self) : nil
        case .equality(let isEqual, let forced):
            return forced || storeDeduplicates ? isEqual : nil
        }
    }
}

extension Deduplication where Value: Equatable {
    /// The `deduplicate:` override for a value whose `==` is known statically: `nil` is the store default.
    @inlinable
    static func equatable(_ deduplicate: Bool?) -> Deduplication {
        switch deduplicate {
        case nil: return Deduplication(kind: .equality({ $0 == $1 }, forced: false))
        case true?: return Deduplication(kind: .equality({ $0 == $1 }, forced: true))
        case false?: return .never
        }
    }
}
