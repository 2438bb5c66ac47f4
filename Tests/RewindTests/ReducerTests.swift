import Rewind
import RewindTesting
import Testing

/// A todo list: the parent of per-item reducers.
struct TodoItem: Equatable, Identifiable, Codable, Sendable {
    var id: Int
    var title: String
    var done = false
}

enum TodoItemAction: Equatable, Codable, Sendable {
    case toggle
    case rename(String)
    case renameLater(String)
}

struct TodoList: Equatable, Codable, Sendable {
    var items: [TodoItem] = []
    var counter = Counter()
}

enum TodoListAction: Equatable, Codable, Sendable {
    case item(id: Int, action: TodoItemAction)
    case counter(CounterAction)
    case clear
}

extension Reducer where State == TodoItem, Action == TodoItemAction {
    static let item = Reducer { item, action in
        switch action {
        case .toggle:
            item.done.toggle()
            return .none
        case .rename(let title):
            item.title = title
            return .none
        case .renameLater(let title):
            return .send(.rename(title))
        }
    }
}

@Suite("Reducer: (inout State, Action) -> Effect, composable")
@MainActor
struct ReducerTests {
    @Test("a reducer mutates the state in place and returns the effect to run")
    func reduceInPlace() {
        var state = Counter()
        let effect = Reducer.counter(&state, .add(3))
        #expect(state.count == 3)
        #expect(effect.isNone)
    }

    @Test("combine runs the reducers in order, each seeing the previous one's changes")
    func combineOrder() {
        let double = Reducer<Counter, CounterAction> { state, _ in
            state.count *= 2
            return .none
        }
        var state = Counter(count: 1)
        _ = Reducer.combine(.counter, double)(&state, .increment)
        #expect(state.count == 4)
        state = Counter(count: 1)
        _ = double.combined(with: .counter)(&state, .increment)
        #expect(state.count == 3)
    }

    @Test("combine merges the reducers' effects, in order")
    func combineMergesEffects() {
        let first = Reducer<Counter, CounterAction> { _, action in
            action == .increment ? .send(.setLabel("first")) : .none
        }
        let second = Reducer<Counter, CounterAction> { _, action in
            action == .increment ? .send(.setLabel("second")) : .none
        }
        var labels: [String] = []
        let store = Store(initialState: Counter(), reducer: .combine(.counter, first, second))
        store.subscribe(to: \.label) { labels.append($0) }
        store.dispatch(.increment)
        #expect(labels == ["", "first", "second"])
    }

    @Test("a lifted reducer runs on its slice for the actions it extracts and ignores the others")
    func liftedSlice() {
        let lifted: Reducer<TodoList, TodoListAction> = Reducer.counter.lifted(
            state: \.counter,
            extract: { if case .counter(let action) = $0 { action } else { nil } },
            embed: TodoListAction.counter
        )
        var list = TodoList(items: [TodoItem(id: 1, title: "Milk")])
        _ = lifted(&list, .counter(.add(2)))
        _ = lifted(&list, .clear)
        #expect(list.counter.count == 2)
        #expect(list.items.count == 1)
    }

    @Test("a lifted reducer's effects send parent actions")
    func liftedEffectsEmbed() {
        let child = Reducer<Counter, CounterAction> { state, action in
            switch action {
            case .increment: return .send(.setLabel("incremented"))
            case .setLabel(let label): state.label = label
            default: break
            }
            return .none
        }
        let embedding = ActionEmbedding<TodoListAction, CounterAction>(
            embed: TodoListAction.counter,
            extract: { if case .counter(let action) = $0 { action } else { nil } }
        )
        var seen: [TodoListAction] = []
        let spy = Reducer<TodoList, TodoListAction> { _, action in
            seen.append(action)
            return .none
        }
        let store = Store(initialState: TodoList(),
                          reducer: .combine(spy, child.lifted(state: \.counter, action: embedding)))
        store.dispatch(.counter(.increment))
        #expect(store.state.counter.label == "incremented")
        #expect(seen == [.counter(.increment), .counter(.setLabel("incremented"))])
    }

    @Test("a reducer lifted over a collection runs on the element with the action's id")
    func liftedEach() {
        let items: Reducer<TodoList, TodoListAction> = Reducer.item.lifted(
            each: \.items,
            extract: { if case .item(let id, let action) = $0 { (id, action) } else { nil } },
            embed: { TodoListAction.item(id: $0, action: $1) }
        )
        var list = TodoList(items: [TodoItem(id: 1, title: "Milk"), TodoItem(id: 2, title: "Eggs")])
        _ = items(&list, .item(id: 2, action: .toggle))
        #expect(list.items.map(\.done) == [false, true])
    }

    @Test("an action for an id no longer in the collection is ignored")
    func liftedEachUnknownID() {
        let items: Reducer<TodoList, TodoListAction> = Reducer.item.lifted(
            each: \.items,
            id: \.id,
            extract: { if case .item(let id, let action) = $0 { (id, action) } else { nil } },
            embed: { TodoListAction.item(id: $0, action: $1) }
        )
        var list = TodoList(items: [TodoItem(id: 1, title: "Milk")])
        let effect = items(&list, .item(id: 9, action: .toggle))
        #expect(list == TodoList(items: [TodoItem(id: 1, title: "Milk")]))
        #expect(effect.isNone)
    }

    @Test("an element's effects come back tagged with the element's id")
    func liftedEachEffects() {
        let items: Reducer<TodoList, TodoListAction> = Reducer.item.lifted(
            each: \.items,
            extract: { if case .item(let id, let action) = $0 { (id, action) } else { nil } },
            embed: { TodoListAction.item(id: $0, action: $1) }
        )
        let store = Store(initialState: TodoList(items: [TodoItem(id: 1, title: "Milk"),
                                                         TodoItem(id: 2, title: "Eggs")]),
                          reducer: items)
        store.dispatch(.item(id: 2, action: .renameLater("Bread")))
        #expect(store.state.items.map(\.title) == ["Milk", "Bread"])
    }

    @Test("the empty reducer changes nothing")
    func emptyReducer() {
        var state = Counter(count: 3)
        let effect = Reducer<Counter, CounterAction>.empty(&state, .increment)
        #expect(state.count == 3)
        #expect(effect.isNone)
    }
}
