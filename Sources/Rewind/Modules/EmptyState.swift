/// The state of a module that has none (the default ``StoreModule/State``).
///
/// Threading: an empty value; `Sendable`.
public struct EmptyState: Hashable, Codable, Sendable, DefaultInitializable {
    /// The empty state.
    public init() {}
}
