import Rewind
import RewindTesting
import Testing
@testable import todo

@Suite("todo sample: typed commands")
@MainActor
struct TodoCommandsTests {
    func makeCommands(_ state: TodoState) -> TodoCommands {
        TodoCommands(store: Store(initialState: state, reducer: todoReducer))
    }

    static let filtered = TodoState(
        todos: [Todo(id: 1, title: "Buy milk"), Todo(id: 2, title: "Walk the dog"), Todo(id: 5, title: "Milk tea")],
        query: "milk", filter: "milk", visible: [1, 5])

    @Test("items are chosen by their position as shown, and the action names them by id")
    func positions() throws {
        let commands = makeCommands(Self.filtered)
        #expect(try commands.parse("toggle 2") == .toggle(id: 5))
        #expect(try commands.parse("remove 1") == .remove(id: 1))
        #expect(throws: (any Error).self) { try commands.parse("toggle 3") }
        #expect(throws: (any Error).self) { try commands.parse("remove 0") }
        #expect(throws: (any Error).self) { try commands.parse("remove first") }
    }

    @Test("each command word becomes its action; the rest of the line is the text")
    func words() throws {
        let commands = makeCommands(TodoState())
        #expect(try commands.parse("add Buy oat milk") == .add(title: "Buy oat milk"))
        #expect(try commands.parse("clear-search") == .clearSearch)
        #expect(try commands.parse("save") == .save)
        #expect(try commands.parse("load") == .load)
        for bad in ["add", "search", "save now", "fly", ""] {
            #expect(throws: (any Error).self, "\(bad)") { try commands.parse(bad) }
        }
    }

    @Test("show prints the items shown, numbered as commands count them, with the search and the status")
    func show() throws {
        var state = Self.filtered
        state.todos[2].isDone = true
        state.status = "saved 3 items"
        var commands = makeCommands(state)
        var shown: [String] = []
        commands.display = { shown.append($0) }
        #expect(try commands.parse("show") == nil)
        #expect(shown == ["Todo (search: milk)\n  1. [ ] Buy milk\n  2. [x] Milk tea\nsaved 3 items\n"])
        commands = makeCommands(TodoState())
        commands.display = { shown.append($0) }
        _ = try commands.parse("show")
        #expect(shown.last == "Todo\n  (empty)\n")
    }

    @Test("search types its text a character at a time; the debounce applies only the whole of it")
    func searchTyping() async throws {
        let clock = TestClock()
        let store = Store(initialState: Self.filtered, reducer: todoReducer,
                          configuration: StoreConfiguration(clock: clock))
        var queries: [String] = []
        store.subscribe(to: \.query) { queries.append($0) }
        var filters: [String?] = []
        store.subscribe(to: \.filter) { filters.append($0) }
        let action = try TodoCommands(store: store).parse("search dog")
        #expect(action == .search(query: "dog"))
        if let action { store.dispatch(action) }
        #expect(queries == ["milk", "d", "do", "dog"])
        await clock.advance(by: .milliseconds(300))
        #expect(filters == ["milk", "dog"])
        #expect(store.state.visible == [2])
    }

    @Test("the demo script is made of valid commands and ends with the list it started with")
    func demoScript() async throws {
        let files = MemoryFileSystem()
        let clock = TestClock()
        let store = Store(initialState: TodoState(), reducer: todoReducer,
                          interpreter: .live(file: "/demo.json", fileSystem: files, ids: SequentialIDs()),
                          configuration: StoreConfiguration(clock: clock))
        let commands = TodoCommands(store: store)
        for _ in 1...2 {
            for line in TodoCommands.demoScript {
                if let action = try commands.parse(line) { store.dispatch(action) }
                await clock.advance(by: .milliseconds(800))
            }
            #expect(store.state.todos.isEmpty)
            #expect(store.state.status == "loaded 2 items")
        }
    }
}
