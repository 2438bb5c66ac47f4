import Foundation
import Rewind
import SampleSupport

/// The todo sample's typed commands: each line becomes an action, or does its own small job (`show`).
///
/// Items are chosen by their position in the list as shown (`toggle 2`: the second item shown); the action names
/// the item by id, so that it means the same thing when replayed. `search` types its text one character at a
/// time, as a user would, so the debounce is seen at work: one search applies, for the whole word.
/// Threading: main actor, like the store.
@MainActor
struct TodoCommands {
    /// One line per command, for `--help` and `help`.
    static let help = [
        "add TITLE        add an item",
        "toggle N         mark the N-th item shown done, or not done",
        "remove N         delete the N-th item shown",
        "search TEXT      type TEXT into the search field; the items containing it show 300 ms later",
        "clear-search     show every item",
        "save             write the list to its file",
        "load             replace the list with the one in its file",
        "show             print the list as text (on standard error)",
    ]

    /// What `--demo` loops over: it ends where it started, with an empty list.
    static let demoScript = [
        "add Buy milk",
        "add Walk the dog",
        "toggle 1",
        "search milk",
        "clear-search",
        "save",
        "remove 1",
        "load",
        "remove 2",
        "remove 1",
    ]

    let store: Store<TodoState, TodoAction>
    /// Where `show` writes the list: standard error, so that standard output stays one state per line.
    var display: @MainActor (String) -> Void = { text in FileHandle.standardError.write(Data(text.utf8)) }

    /// The action for `line`, or nil when the command did its job itself.
    func parse(_ line: String) throws(SampleError) -> TodoAction? {
        let parts = line.split(separator: " ", maxSplits: 1)
        let word = parts.first.map(String.init) ?? ""
        let rest = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
        switch word {
        case "add":
            guard !rest.isEmpty else { throw SampleError("'add' needs a title, e.g. 'add Buy milk'") }
            return .add(title: rest)
        case "toggle":
            return .toggle(id: try shownTodo(rest, for: word).id)
        case "remove":
            return .remove(id: try shownTodo(rest, for: word).id)
        case "search":
            guard !rest.isEmpty else { throw SampleError("'search' needs some text; 'clear-search' shows everything") }
            for length in 1..<rest.count {
                store.dispatch(.search(query: String(rest.prefix(length))))
            }
            return .search(query: rest)
        case "clear-search":
            try expectNothing(after: word, rest)
            return .clearSearch
        case "save":
            try expectNothing(after: word, rest)
            return .save
        case "load":
            try expectNothing(after: word, rest)
            return .load
        case "show":
            try expectNothing(after: word, rest)
            show()
            return nil
        default:
            throw SampleError("unknown command '\(line)' (type 'help' for the list)")
        }
    }

    private func expectNothing(after word: String, _ rest: String) throws(SampleError) {
        guard rest.isEmpty else { throw SampleError("'\(word)' takes nothing after it") }
    }

    private func shownTodo(_ text: String, for word: String) throws(SampleError) -> Todo {
        guard let position = Int(text) else {
            throw SampleError("'\(word)' takes the number of an item as shown, e.g. '\(word) 1'")
        }
        guard let todo = store.state.visibleTodo(at: position) else {
            let count = store.state.visible.count
            throw SampleError("there is no item \(position): \(count == 1 ? "1 item is" : "\(count) items are") shown")
        }
        return todo
    }

    private func show() {
        let state = store.state
        var lines = [state.filter.map { "Todo (search: \($0))" } ?? "Todo"]
        for (index, id) in state.visible.enumerated() {
            guard let todo = state.todos.first(where: { $0.id == id }) else { continue }
            lines.append("  \(index + 1). [\(todo.isDone ? "x" : " ")] \(todo.title)")
        }
        if state.visible.isEmpty { lines.append(state.todos.isEmpty ? "  (empty)" : "  (nothing matches)") }
        if let status = state.status { lines.append(status) }
        display(lines.joined(separator: "\n") + "\n")
    }
}
