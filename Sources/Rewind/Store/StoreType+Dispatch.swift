extension StoreType {
    /// Dispatches `action`, recording the call site (`#fileID`, `#line`) as its source.
    public func dispatch(_ action: Action, file: StaticString = #fileID, line: UInt = #line) {
        dispatch(action, source: SourceLocation(file: file, line: line))
    }

    /// A store-like view of this store with its own state and action types, owning no state: its state is
    /// `state(parentState)` and its actions are turned into parent actions by `action` (returning nil drops the
    /// action). Projections of projections work. The projection keeps this store alive.
    ///
    /// ```swift
    /// let counter = store.projection(action: { .counter($0) }, state: \.counter)
    /// ```
    public func projection<LocalState, LocalAction>(
        action: @escaping @MainActor (LocalAction) -> Action?,
        state: @escaping @MainActor (State) -> LocalState
    ) -> StoreProjection<LocalState, LocalAction> {
        StoreProjection(parent: self, action: action, state: state)
    }
}
