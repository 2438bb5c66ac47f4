/// Ends a subscription (to state, or to a module's outputs) when ``cancel()`` is called.
///
/// Letting the token go does *not* end the subscription: a subscription lives until the token is cancelled, its
/// owner (for subscriptions made with an owner object) is deallocated, or the store is released. Subscribe with an
/// owner to tie a subscription to an object's lifetime without keeping tokens.
///
/// Threading: main actor, like the store it came from.
@MainActor
public final class SubscriptionToken: Hashable {
    private var onCancel: (@MainActor () -> Void)?

    /// True once ``cancel()`` has been called (or the subscription ended because its owner went away).
    public private(set) var isCancelled = false

    /// Creates a token that runs `onCancel` once, on the first ``cancel()``.
    public init(onCancel: @escaping @MainActor () -> Void) {
        self.onCancel = onCancel
    }

    /// Ends the subscription: no value is delivered after this returns, even if a notification is in progress.
    /// Calling it again does nothing.
    public func cancel() {
        guard !isCancelled else { return }
        isCancelled = true
        let action = onCancel
        onCancel = nil
        action?()
    }

    /// Marks the token cancelled without running its action (the subscription already ended by itself).
    @usableFromInline
    func markEnded() {
        isCancelled = true
        onCancel = nil
    }

    /// Keeps the token in a set, e.g. `token.store(in: &tokens)`, to cancel many at once later.
    public func store(in set: inout Set<SubscriptionToken>) {
        set.insert(self)
    }

    /// Identity: the same token.
    public nonisolated static func == (lhs: SubscriptionToken, rhs: SubscriptionToken) -> Bool { lhs === rhs }

    /// Hashes the token's identity.
    public nonisolated func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
