/// A built screen of a ``ScreenModule``: the module's store and what it renders into.
///
/// Threading: main actor.
@MainActor
public struct ModuleScreen<Module: ScreenModule> {
    /// The screen's store.
    public let store: ModuleStore<Module>
    /// What the screen renders into.
    public let rendering: Module.Rendering

    /// Pairs a store with its rendering (what ``ScreenModule/createScreen(with:)-(ModuleStore<Self>)`` returns).
    public init(_ store: ModuleStore<Module>, _ rendering: Module.Rendering) {
        self.store = store
        self.rendering = rendering
    }

    /// Observes the module's outputs (see ``ModuleStore/observeOutput(_:)``).
    @discardableResult
    public func observeOutput(_ handler: @escaping @MainActor (Module.Output) -> Void) -> SubscriptionToken {
        store.observeOutput(handler)
    }

    /// Observes the module's outputs with a weakly held owner (see ``ModuleStore/observeOutput(_:_:)``).
    @discardableResult
    public func observeOutput<Owner: AnyObject>(
        _ owner: Owner,
        _ handler: @escaping @MainActor (Owner, Module.Output) -> Void
    ) -> SubscriptionToken {
        store.observeOutput(owner, handler)
    }
}
