/// The single source of truth: holds the state, runs every action through the middleware chain and the reducer,
/// notifies subscribers, and starts the effects the reducer returns.
///
/// ## Usage
///
/// ```swift
/// struct AppState: Equatable, Codable { var count = 0 }
/// enum AppAction: Equatable, Codable { case increment, incrementLater }
///
/// let reducer = Reducer<AppState, AppAction> { state, action in
///     switch action {
///     case .increment:
///         state.count += 1
///         return .none
///     case .incrementLater:
///         return Effect.send(.increment, after: .seconds(1))
///     }
/// }
///
/// let store = Store(initialState: AppState(), reducer: reducer, middleware: [logging])
/// let token = store.subscribe(to: \.count) { count in label.text = "\(count)" }   // delivered at once: 0
/// store.dispatch(.increment)                                                     // label shows 1
/// token.cancel()
/// ```
///
/// ## Processing an action
///
/// `dispatch` runs the action through the middleware (the first registered is the outermost), then the reducer,
/// which mutates the state and returns an ``Effect``. Then, in this order: the new state is committed, subscribers
/// are notified (in subscription order, each only if its selected value changed), and the effect is started.
///
/// An action dispatched while another is being processed — by a subscriber, a middleware or a synchronous effect —
/// is queued and processed afterwards, FIFO; processing never nests and notifications never interleave, so long
/// synchronous chains use no stack. More than ``StoreConfiguration/runawayThreshold`` chained actions are reported
/// as a ``RunawayLoop`` and stopped. Dispatching from inside a reducer is reported as a ``ProgrammingError``.
///
/// Effects run after the state is committed; the actions they send come back through `dispatch`. Releasing the
/// store cancels its running effects.
///
/// ## Threading
///
/// The store is `@MainActor`: all of its API, reducers, middleware, subscribers and effect operations run on the
/// main actor. From another thread, hop with `Task { @MainActor in store.dispatch(action) }`, or
/// `await store.dispatch(action)` from asynchronous code.
@MainActor
public final class Store<State, Action>: StoreType {
    /// Work waiting for the action being processed to finish.
    @usableFromInline
    enum PendingWork {
        case action(DispatchedAction<Action>)
        case replaceState(State)
    }

    /// The current, committed state. Only reducers (and the tooling operations of ``MiddlewareContext``) change it.
    @inlinable
    public var state: State { currentState }

    /// Storage of ``state``.
    @usableFromInline
    var currentState: State

    @usableFromInline
    let reducer: Reducer<State, Action>
    @usableFromInline
    let configuration: StoreConfiguration
    @usableFromInline
    let effects: EffectRuntime<Action>
    @usableFromInline
    let effectTasks: EffectTaskRegistry

    // The bookkeeping below is main-actor confined and only ever accessed briefly (never across a call into user
    // code), so dynamic exclusivity checks would find nothing; they are disabled because they dominate the cost of
    // a dispatch. `currentState` keeps its checks: they catch a reducer reading the store's state mid-mutation.
    @usableFromInline @exclusivity(unchecked)
    var chain: (@MainActor (DispatchedAction<Action>) -> Void)?
    @usableFromInline @exclusivity(unchecked)
    var subscriptions: [StoreSubscription<State>] = []

    @usableFromInline @exclusivity(unchecked)
    var isProcessing = false
    @usableFromInline @exclusivity(unchecked)
    var isReducing = false
    @usableFromInline @exclusivity(unchecked)
    var processedCount = 0
    @usableFromInline @exclusivity(unchecked)
    var pending: [PendingWork] = []
    @usableFromInline @exclusivity(unchecked)
    var pendingHead = 0

    /// Creates a store.
    ///
    /// - Parameters:
    ///   - initialState: The state before any action.
    ///   - reducer: The reducer every action goes through.
    ///   - interpreter: Performs the ``EffectDescription``s reducers return, with dependencies injected at launch.
    ///   - middleware: Wraps dispatch; the first is the outermost. Each one's `make` is called once, here, in order.
    ///   - configuration: Deduplication default, runaway threshold, clock and hooks.
    @inlinable
    public init(
        initialState: State,
        reducer: Reducer<State, Action>,
        interpreter: Interpreter = .none,
        middleware: [Middleware<State, Action>] = [],
        configuration: StoreConfiguration = StoreConfiguration()
    ) {
        self.currentState = initialState
        self.reducer = reducer
        self.configuration = configuration
        self.effects = EffectRuntime(interpreter: interpreter, clock: configuration.clock)
        self.effectTasks = effects.registry

        effects.dispatch = { [weak self] action, source in
            self?.dispatch(DispatchedAction(action: action, source: source))
        }
        let onProgrammingError = configuration.onProgrammingError
        effects.report = { error in onProgrammingError(error) }

        if !middleware.isEmpty {
            let context = MiddlewareContext(store: self)
            let wrappers = middleware.map { $0.make(context) }
            let terminal: @MainActor (DispatchedAction<Action>) -> Void = { [weak self] dispatched in
                self?.reduceFromChain(dispatched)
            }
            chain = wrappers.reversed().reduce(terminal) { next, wrap in wrap(next) }
        }
    }

    deinit {
        effectTasks.cancelAll()
    }

    // MARK: Dispatch

    /// Dispatches `action`: runs it through the middleware and the reducer, notifies subscribers and starts its
    /// effect. While another action is being processed, `action` is queued and processed after it (FIFO).
    @inlinable
    public func dispatch(_ action: Action, file: StaticString = #fileID, line: UInt = #line) {
        dispatch(DispatchedAction(action: action, source: SourceLocation(file: file, line: line)))
    }

    /// Dispatches `action` with an explicit source (e.g. one decoded from the inspector).
    @inlinable
    public func dispatch(_ action: Action, source: SourceLocation) {
        dispatch(DispatchedAction(action: action, source: source))
    }

    @inlinable
    func dispatch(_ dispatched: DispatchedAction<Action>) {
        if isProcessing {
            if isReducing {
                reportDispatchFromReducer(dispatched)
            }
            enqueue(.action(dispatched))
            return
        }
        isProcessing = true
        processedCount = 1
        if let chain {
            chain(dispatched)
        } else {
            reduce(dispatched)
        }
        drain()
        isProcessing = false
    }

    @usableFromInline
    func reportDispatchFromReducer(_ dispatched: DispatchedAction<Action>) {
        configuration.onProgrammingError(ProgrammingError(
            kind: .dispatchFromReducer,
            message: "\(dispatched.action) was dispatched from inside a reducer. Reducers must be pure: "
                + "return `Effect.send(action)` instead. The action is processed after the current one.",
            source: dispatched.source
        ))
    }

    @inlinable
    func enqueue(_ work: PendingWork) {
        pending.append(work)
    }

    /// Processes `first`, then everything queued meanwhile.
    @inlinable
    func process(_ first: PendingWork) {
        isProcessing = true
        processedCount = 1
        execute(first)
        drain()
        isProcessing = false
    }

    @inlinable
    func drain() {
        while pendingHead < pending.count {
            let work = pending[pendingHead]
            pendingHead += 1
            if pendingHead == pending.count {
                pending.removeAll(keepingCapacity: true)
                pendingHead = 0
            }
            processedCount += 1
            if processedCount > configuration.runawayThreshold {
                stopRunawayLoop(next: work)
                return
            }
            execute(work)
        }
    }

    @usableFromInline
    func stopRunawayLoop(next work: PendingWork) {
        let dropped = pending.count - pendingHead + 1
        pending.removeAll()
        pendingHead = 0
        let next: String
        switch work {
        case .action(let dispatched): next = String(describing: dispatched.action)
        case .replaceState: next = "a state replacement"
        }
        configuration.onRunawayLoop(RunawayLoop(
            threshold: configuration.runawayThreshold,
            processedCount: processedCount - 1,
            droppedCount: dropped,
            nextAction: next
        ))
    }

    @inlinable
    func execute(_ work: PendingWork) {
        switch work {
        case .action(let dispatched):
            if let chain {
                chain(dispatched)
            } else {
                reduce(dispatched)
            }
        case .replaceState(let newState):
            currentState = newState
            notifySubscribers()
        }
    }

    /// The end of the middleware chain. A middleware may call `next` later, outside of `dispatch`: the action is
    /// then processed on its own, with anything it queues.
    @inlinable
    func reduceFromChain(_ dispatched: DispatchedAction<Action>) {
        if isProcessing {
            reduce(dispatched)
        } else {
            isProcessing = true
            processedCount = 1
            reduce(dispatched)
            drain()
            isProcessing = false
        }
    }

    @inlinable
    func reduce(_ dispatched: DispatchedAction<Action>) {
        isReducing = true
        let effect = reducer.reduce(&currentState, dispatched.action)
        isReducing = false
        if !subscriptions.isEmpty {
            notifySubscribers()
        }
        if let storage = effect.storage {
            if case .send(let action, let source) = storage.operation {
                // The most common effect, kept on the specialised path: queued behind the current action.
                enqueue(.action(DispatchedAction(action: action, source: source)))
            } else {
                effects.start(effect, origin: dispatched)
            }
        }
    }

    // MARK: Tooling

    /// Replaces the state without reducers or middleware and notifies subscribers (queued while processing).
    func replaceState(_ newState: State) {
        if isProcessing {
            enqueue(.replaceState(newState))
        } else {
            process(.replaceState(newState))
        }
    }

    /// Resets to `initial` and runs `actions` through the reducer only, muting effects. See
    /// ``MiddlewareContext/replay(from:actions:each:)``.
    func replay(from initial: State, actions: [Action], each: (Int, State) -> Void) -> State? {
        if isProcessing {
            configuration.onProgrammingError(ProgrammingError(
                kind: .replayWhileProcessing,
                message: "replay(from:actions:each:) was called while the store was processing an action; "
                    + "call it outside of dispatch (for example from a Task on the main actor)."
            ))
            return nil
        }
        isProcessing = true
        processedCount = 1
        currentState = initial
        for (index, action) in actions.enumerated() {
            isReducing = true
            _ = reducer.reduce(&currentState, action)
            isReducing = false
            each(index, state)
        }
        let final = state
        notifySubscribers()
        drain()
        isProcessing = false
        return final
    }

    // MARK: Subscriptions

    /// Starts a subscription; see the `subscribe` conveniences of ``StoreType``. The current value is delivered
    /// before this returns, even from inside a notification.
    @inlinable
    @discardableResult
    public func subscribe<Value>(_ request: SubscriptionRequest<State, Value>) -> SubscriptionToken {
        let subscription = StoreSubscription(request, storeDeduplicates: configuration.deduplicatesEquatableValues)
        // The token holds the subscription strongly (and the subscription the token weakly), so that the
        // subscription, retained on every notification, has no weak references and keeps fast reference counting.
        let token = SubscriptionToken { [weak self] in
            subscription.isActive = false
            self?.subscriptions.removeAll { $0 === subscription }
        }
        subscription.token = token
        subscriptions.append(subscription)
        if !subscription.receive(state) {
            end(subscription)
            subscriptions.removeAll { $0 === subscription }
        }
        return token
    }

    /// The number of active subscriptions (those whose owner has not been found gone yet).
    public var subscriptionCount: Int {
        subscriptions.count
    }

    @inlinable
    func notifySubscribers() {
        let current = subscriptions
        var someEnded = false
        for subscription in current where subscription.isActive {
            if !subscription.receive(state) {
                end(subscription)
                someEnded = true
            }
        }
        if someEnded {
            subscriptions.removeAll { !$0.isActive }
        }
    }

    @usableFromInline
    func end(_ subscription: StoreSubscription<State>) {
        subscription.isActive = false
        subscription.token?.markEnded()
    }
}

// MARK: - Test tooling

@_spi(Testing)
extension Store {
    /// The actions whose effects are still running, oldest first. For test tooling (`TestStore`).
    public var _runningEffectOrigins: [DispatchedAction<Action>] {
        effects.runningOrigins
    }

    /// Called on the main actor whenever an effect task starts or finishes. For test tooling (`TestStore`).
    public var _onEffectActivity: (@MainActor () -> Void)? {
        get { effects.onActivity }
        set { effects.onActivity = newValue }
    }
}
