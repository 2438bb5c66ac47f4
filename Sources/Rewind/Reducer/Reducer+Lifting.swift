extension Reducer {
    /// Lifts this reducer, written for a slice of state and a child action type, into a parent reducer.
    ///
    /// The parent reducer ignores parent actions for which `extract` returns nil; otherwise it runs this reducer on
    /// `parent[keyPath: state]` and maps the child's effects into parent actions with `embed`.
    public func lifted<ParentState, ParentAction>(
        state keyPath: WritableKeyPath<ParentState, State> & Sendable,
        extract: @escaping @MainActor (ParentAction) -> Action?,
        embed: @escaping @MainActor (Action) -> ParentAction
    ) -> Reducer<ParentState, ParentAction> {
        let reduce = self.reduce
        return Reducer<ParentState, ParentAction> { parent, parentAction in
            guard let action = extract(parentAction) else { return .none }
            return reduce(&parent[keyPath: keyPath], action).map(embed)
        }
    }

    /// Lifts this reducer into a parent reducer through an ``ActionEmbedding``.
    public func lifted<ParentState, ParentAction>(
        state keyPath: WritableKeyPath<ParentState, State> & Sendable,
        action embedding: ActionEmbedding<ParentAction, Action>
    ) -> Reducer<ParentState, ParentAction> {
        lifted(state: keyPath, extract: embedding.extract, embed: embedding.embed)
    }

    /// Lifts this reducer, written for one element, over a collection of elements in the parent state, by id.
    ///
    /// `extract` returns the element id and child action carried by a parent action (nil for other parent
    /// actions); the reducer runs on the element with that id, and its effects are mapped back with `embed`,
    /// tagged with the same id. An action for an id no longer in the collection (e.g. sent by an effect of a
    /// removed element) is ignored.
    public func lifted<ParentState, ParentAction, Elements, ID: Hashable>(
        each elements: WritableKeyPath<ParentState, Elements> & Sendable,
        id: KeyPath<State, ID> & Sendable,
        extract: @escaping @MainActor (ParentAction) -> (ID, Action)?,
        embed: @escaping @MainActor (ID, Action) -> ParentAction
    ) -> Reducer<ParentState, ParentAction>
    where Elements: MutableCollection & RandomAccessCollection, Elements.Element == State {
        let reduce = self.reduce
        return Reducer<ParentState, ParentAction> { parent, parentAction in
            guard let (elementID, action) = extract(parentAction) else { return .none }
            guard let index = parent[keyPath: elements].firstIndex(where: { $0[keyPath: id] == elementID }) else {
                return .none
            }
            return reduce(&parent[keyPath: elements][index], action).map { embed(elementID, $0) }
        }
    }

    /// Lifts this reducer, written for one `Identifiable` element, over a collection in the parent state, by `id`.
    public func lifted<ParentState, ParentAction, Elements>(
        each elements: WritableKeyPath<ParentState, Elements> & Sendable,
        extract: @escaping @MainActor (ParentAction) -> (State.ID, Action)?,
        embed: @escaping @MainActor (State.ID, Action) -> ParentAction
    ) -> Reducer<ParentState, ParentAction>
    where State: Identifiable, Elements: MutableCollection & RandomAccessCollection, Elements.Element == State {
        lifted(each: elements, id: \.id, extract: extract, embed: embed)
    }
}
