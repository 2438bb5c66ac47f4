import Foundation
import Rewind
import RewindTesting
import Testing
@testable import todo

@Suite("todo sample: the reducer, its effects and the interpreter")
@MainActor
struct TodoReducerTests {
    let files = MemoryFileSystem()
    let ids = SequentialIDs()
    let path = "/lists/todo.json"

    func makeStore(_ state: TodoState = TodoState()) -> TestStore<TodoState, TodoAction> {
        TestStore(initialState: state, reducer: todoReducer,
                  interpreter: .live(file: path, fileSystem: files, ids: ids))
    }

    static let milk = Todo(id: 1, title: "Buy milk")
    static let dog = Todo(id: 2, title: "Walk the dog")
    static let twoItems = TodoState(todos: [milk, dog], visible: [1, 2])

    @Test("adding asks the generator for an id, then appends the item with it")
    func add() async {
        let store = makeStore()
        await store.send(.add(title: "  Buy milk "))
        await store.receive(.added(Self.milk)) {
            $0.todos = [Self.milk]
            $0.visible = [1]
        }
        await store.send(.add(title: "Walk the dog"))
        await store.receive(.added(Self.dog)) {
            $0.todos.append(Self.dog)
            $0.visible = [1, 2]
        }
        await store.finish()
    }

    @Test("a blank title adds nothing and uses no id")
    func blankTitle() async {
        let store = makeStore()
        await store.send(.add(title: "   "))
        await store.finish()
        #expect(ids.next() == 1)
    }

    @Test("toggle flips an item done and back; remove deletes it; unknown ids change nothing")
    func toggleAndRemove() async {
        let store = makeStore(Self.twoItems)
        await store.send(.toggle(id: 2)) { $0.todos[1].isDone = true }
        await store.send(.toggle(id: 2)) { $0.todos[1].isDone = false }
        await store.send(.toggle(id: 9))
        await store.send(.remove(id: 1)) {
            $0.todos = [Self.dog]
            $0.visible = [2]
        }
        await store.send(.remove(id: 9))
        await store.finish()
    }

    @Test("the search applies 300 ms after the last keystroke, and only the last one")
    func debouncedSearch() async {
        let store = makeStore(Self.twoItems)
        await store.send(.search(query: "M")) { $0.query = "M" }
        await store.clock.advance(by: .milliseconds(200))
        await store.send(.search(query: "MILK")) { $0.query = "MILK" }
        await store.clock.advance(by: .milliseconds(299))
        #expect(store.receivedActions.isEmpty)
        await store.clock.advance(by: .milliseconds(1))
        await store.receive(.applySearch(query: "MILK")) {
            $0.filter = "MILK"
            $0.visible = [1]
        }
        await store.finish()
    }

    @Test("items added or removed while a search applies are shown or hidden by it")
    func filterFollowsChanges() async {
        var state = Self.twoItems
        state.query = "milk"
        state.filter = "milk"
        state.visible = [1]
        ids.skip(past: 2)
        let store = makeStore(state)
        await store.send(.add(title: "Milk chocolate"))
        await store.receive(.added(Todo(id: 3, title: "Milk chocolate"))) {
            $0.todos.append(Todo(id: 3, title: "Milk chocolate"))
            $0.visible = [1, 3]
        }
        await store.send(.add(title: "Call mum"))
        await store.receive(.added(Todo(id: 4, title: "Call mum"))) {
            $0.todos.append(Todo(id: 4, title: "Call mum"))
        }
        await store.send(.remove(id: 1)) {
            $0.todos.removeFirst()
            $0.visible = [3]
        }
        await store.finish()
    }

    @Test("clearing the search, or emptying it, shows everything and cancels the pending search")
    func clearSearch() async {
        let store = makeStore(Self.twoItems)
        await store.send(.search(query: "dog")) { $0.query = "dog" }
        await store.send(.clearSearch) { $0.query = "" }
        await store.send(.search(query: "milk")) { $0.query = "milk" }
        await store.send(.search(query: "")) { $0.query = "" }
        await store.clock.advance(by: .seconds(1))
        await store.finish()
    }

    @Test("save writes the list as JSON to the file; load reads it back")
    func saveAndLoad() async throws {
        let store = makeStore(Self.twoItems)
        await store.send(.save)
        await store.receive(.saved(count: 2)) { $0.status = "saved 2 items" }
        let written = try #require(files.files[path])
        #expect(try JSONDecoder().decode([Todo].self, from: written) == [Self.milk, Self.dog])

        await store.send(.remove(id: 1)) {
            $0.todos = [Self.dog]
            $0.visible = [2]
        }
        await store.send(.load)
        await store.receive(.loaded([Self.milk, Self.dog])) {
            $0.todos = [Self.milk, Self.dog]
            $0.visible = [1, 2]
            $0.status = "loaded 2 items"
        }
        await store.finish()
    }

    @Test("ids of a loaded list are never given out again")
    func loadedIDsAreSkipped() async throws {
        files.files[path] = try JSONEncoder().encode([Todo(id: 7, title: "Old")])
        let store = makeStore()
        await store.send(.load)
        await store.receive(.loaded([Todo(id: 7, title: "Old")])) {
            $0.todos = [Todo(id: 7, title: "Old")]
            $0.visible = [7]
            $0.status = "loaded 1 item"
        }
        await store.send(.add(title: "New"))
        await store.receive(.added(Todo(id: 8, title: "New"))) {
            $0.todos.append(Todo(id: 8, title: "New"))
            $0.visible = [7, 8]
        }
        await store.finish()
    }

    @Test("loading with nothing saved, a file that is not a list, or a failing disk says so in the status")
    func loadFailures() async {
        let store = makeStore()
        await store.send(.load)
        await store.receive(.loadFailed(reason: "nothing saved yet at /lists/todo.json")) {
            $0.status = "nothing saved yet at /lists/todo.json"
        }
        files.files[path] = Data("{\"not\":\"a list\"}".utf8)
        await store.send(.load)
        await store.receive(.loadFailed(reason: "/lists/todo.json is not a todo list")) {
            $0.status = "/lists/todo.json is not a todo list"
        }
        files.failure = "disk on fire"
        await store.send(.load)
        await store.receive(.loadFailed(reason: "cannot read /lists/todo.json: disk on fire")) {
            $0.status = "cannot read /lists/todo.json: disk on fire"
        }
        await store.finish()
    }

    @Test("a failed save says why and keeps the list")
    func saveFailure() async {
        files.failure = "read-only file system"
        let store = makeStore(Self.twoItems)
        await store.send(.save)
        await store.receive(.saveFailed(reason: "cannot write /lists/todo.json: read-only file system")) {
            $0.status = "cannot write /lists/todo.json: read-only file system"
        }
        await store.finish()
        #expect(files.files.isEmpty)
    }

    @Test("the real file system writes the file whole and reads it back; a missing file reads as nil")
    func localFileSystem() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("todo-\(UUID()).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fileSystem = LocalFileSystem()
        #expect(try fileSystem.contents(of: path) == nil)
        try fileSystem.write(Data("[]".utf8), to: path)
        #expect(try fileSystem.contents(of: path) == Data("[]".utf8))
        #expect(throws: (any Error).self) { try fileSystem.write(Data(), to: "/nonexistent-dir/x/todo.json") }
    }
}
