/// A Redux-style middleware: wraps the store's dispatch to observe, swallow, transform or add actions.
///
/// `make` is called once, when the store is created, with a ``MiddlewareContext`` (`getState` and `dispatch`); it
/// returns a function that receives `next` (the rest of the chain: later middleware, then the reducer) and returns
/// this middleware's dispatch function. The first middleware in the store's list is the outermost: it sees every
/// action first.
///
/// ```swift
/// let logging = Middleware<AppState, AppAction> { context in
///     { next in
///         { dispatched in
///             print("→", dispatched.label, "from", dispatched.source)
///             next(dispatched)                                     // omit to swallow the action
///             print("state:", context.state as Any)
///         }
///     }
/// }
/// ```
///
/// Actions a middleware dispatches through its context go through the whole chain, queued FIFO behind the action
/// being processed (never nested).
///
/// Threading: everything runs on the main actor, synchronously inside `dispatch`.
public struct Middleware<State, Action>: Sendable {
    @usableFromInline
    let make: @MainActor (MiddlewareContext<State, Action>)
        -> (@escaping @MainActor (DispatchedAction<Action>) -> Void)
        -> @MainActor (DispatchedAction<Action>) -> Void

    /// Creates a middleware from its curried form: `context -> next -> dispatch`.
    public init(_ make: @escaping @MainActor (MiddlewareContext<State, Action>)
                    -> (@escaping @MainActor (DispatchedAction<Action>) -> Void)
                    -> @MainActor (DispatchedAction<Action>) -> Void) {
        self.make = make
    }

    /// Creates a middleware from one function called for every action with the context, the action and `next`
    /// (call it to pass the action on; don't to swallow it).
    public static func intercept(
        _ handle: @escaping @MainActor (MiddlewareContext<State, Action>, DispatchedAction<Action>,
                                        _ next: @MainActor (DispatchedAction<Action>) -> Void) -> Void
    ) -> Middleware {
        Middleware { context in
            { next in
                { dispatched in handle(context, dispatched, next) }
            }
        }
    }
}
