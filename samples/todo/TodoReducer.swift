import Rewind

/// How long typing must pause before the search applies.
let todoSearchDebounce: Duration = .milliseconds(300)

/// The id under which the pending search waits, so that each keystroke replaces the previous one.
enum TodoCancelID: Hashable, Sendable {
    case search
}

/// The todo app's logic: pure, so a recorded session replays to the same states. Everything that touches the
/// world (ids, the file, time) is an effect value performed by the interpreter or waited on the store's clock.
let todoReducer = Reducer<TodoState, TodoAction> { state, action in
    switch action {
    case .add(let title):
        let title = title.trimmingCharacters(in: .whitespaces)
        guard !title.isEmpty else { return .none }
        return .perform(TodoEffects.NextID()) { id in .added(Todo(id: id, title: title)) }

    case .added(let todo):
        state.todos.append(todo)
        state.refreshVisible()

    case .toggle(let id):
        guard let index = state.todos.firstIndex(where: { $0.id == id }) else { return .none }
        state.todos[index].isDone.toggle()

    case .remove(let id):
        state.todos.removeAll { $0.id == id }
        state.refreshVisible()

    case .search(let query):
        state.query = query
        guard !query.isEmpty else {
            state.filter = nil
            state.refreshVisible()
            return .cancel(id: TodoCancelID.search)
        }
        return Effect.send(.applySearch(query: query)).debounced(id: TodoCancelID.search, for: todoSearchDebounce)

    case .applySearch(let query):
        state.filter = query
        state.refreshVisible()

    case .clearSearch:
        state.query = ""
        state.filter = nil
        state.refreshVisible()
        return .cancel(id: TodoCancelID.search)

    case .save:
        return .perform(TodoEffects.Save(todos: state.todos)) { result in
            switch result {
            case .success(let count): .saved(count: count)
            case .failure(let error): .saveFailed(reason: error.reason)
            }
        }

    case .saved(let count):
        state.status = "saved \(count) \(count == 1 ? "item" : "items")"

    case .saveFailed(let reason), .loadFailed(let reason):
        state.status = reason

    case .load:
        return .perform(TodoEffects.Load()) { result in
            switch result {
            case .success(let todos): .loaded(todos)
            case .failure(let error): .loadFailed(reason: error.reason)
            }
        }

    case .loaded(let todos):
        state.todos = todos
        state.refreshVisible()
        state.status = "loaded \(todos.count) \(todos.count == 1 ? "item" : "items")"
    }
    return .none
}
