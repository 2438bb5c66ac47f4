/// The store of one ``StoreModule`` instance: a ``Store`` of the module's state and actions, plus its outputs,
/// observed separately from state by the module's owner.
///
/// ```swift
/// let login = ModuleStore<LoginModule>(initialState: .init(message: "Log in"), reducer: LoginModule.reducer)
/// login.observeOutput { output in ... }            // e.g. a flow moving on after .didLogin
/// login.dispatch(.didTapLogin)
/// ```
///
/// Threading: main actor, like ``Store``.
@MainActor
public final class ModuleStore<Module: StoreModule>: StoreType {
    /// The store holding the module's state.
    public let store: Store<Module.State, Module.Action>
    private let outputs: OutputRelay<Module.Output>

    /// Creates the module's store. `reducer` is called once, here, with the emitter of this store's outputs.
    public init(
        initialState: Module.State,
        reducer: (OutputEmitter<Module.Action, Module.Output>) -> Reducer<Module.State, Module.Action>,
        interpreter: Interpreter = .none,
        middleware: [Middleware<Module.State, Module.Action>] = [],
        configuration: StoreConfiguration = StoreConfiguration()
    ) {
        let outputs = OutputRelay<Module.Output>()
        self.outputs = outputs
        let emitter = OutputEmitter<Module.Action, Module.Output> { [weak outputs] output in
            outputs?.deliver(output)
        }
        self.store = Store(
            initialState: initialState,
            reducer: reducer(emitter),
            interpreter: interpreter,
            middleware: middleware,
            configuration: configuration
        )
    }

    /// The module's current state.
    public var state: Module.State {
        store.state
    }

    /// Dispatches `action` into the module's store.
    public func dispatch(_ action: Module.Action, source: SourceLocation) {
        store.dispatch(action, source: source)
    }

    /// Dispatches `action` from the call site.
    public func dispatch(_ action: Module.Action, file: StaticString = #fileID, line: UInt = #line) {
        store.dispatch(action, source: SourceLocation(file: file, line: line))
    }

    /// Subscribes to the module's state.
    @discardableResult
    public func subscribe<Value>(_ request: SubscriptionRequest<Module.State, Value>) -> SubscriptionToken {
        store.subscribe(request)
    }

    /// Calls `handler` with every output the module emits from now on, until the token is cancelled.
    @discardableResult
    public func observeOutput(_ handler: @escaping @MainActor (Module.Output) -> Void) -> SubscriptionToken {
        outputs.observe { output in
            handler(output)
            return true
        }
    }

    /// Calls `handler` with `owner` and every output the module emits from now on. `owner` is held weakly: the
    /// observation ends by itself when it is deallocated.
    @discardableResult
    public func observeOutput<Owner: AnyObject>(
        _ owner: Owner,
        _ handler: @escaping @MainActor (Owner, Module.Output) -> Void
    ) -> SubscriptionToken {
        let reference = WeakReference(owner)
        return outputs.observe { output in
            guard let owner = reference.object else { return false }
            handler(owner, output)
            return true
        }
    }
}
