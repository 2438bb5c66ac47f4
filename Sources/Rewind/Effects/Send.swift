/// Sends actions from a running effect back into its store, through the full dispatch path (middleware, reducer).
///
/// Given to ``Effect/run(priority:_:catch:)`` operations. Actions sent after the effect was cancelled, or after the
/// store was released, are ignored.
///
/// Threading: `Sendable`; calling it is main-actor isolated (`await send(.loaded(items))` from anywhere).
public struct Send<Action>: Sendable {
    let send: @MainActor (Action, SourceLocation) -> Void

    /// Creates a `Send` that forwards to `send` (useful to drive an effect's operation in a test).
    public init(_ send: @escaping @MainActor (Action) -> Void) {
        self.send = { action, _ in send(action) }
    }

    init(forwarding send: @escaping @MainActor (Action, SourceLocation) -> Void) {
        self.send = send
    }

    /// Dispatches `action` into the store, recording the call site as the action's source.
    @MainActor
    public func callAsFunction(_ action: Action, file: StaticString = #fileID, line: UInt = #line) {
        send(action, SourceLocation(file: file, line: line))
    }

    /// A `Send` that transforms actions before sending them.
    func map<Child>(_ transform: @escaping @MainActor (Child) -> Action) -> Send<Child> {
        let send = self.send
        return Send<Child>(forwarding: { action, source in send(transform(action), source) })
    }
}
