import Foundation

/// Everything the todo screen shows, as one value: recorded, inspected and time-travelled as a whole.
///
/// Threading: a value; `Sendable`.
struct TodoState: Codable, Equatable, Sendable {
    /// The list, in the order the items were added.
    var todos: [Todo] = []
    /// The search field, as typed.
    var query = ""
    /// The search in effect: the query once typing has paused (debounced); nil shows every item.
    var filter: String?
    /// The ids of the items shown: all of them, or those whose title contains ``filter``.
    var visible: [Todo.ID] = []
    /// What the last save or load did, as a sentence.
    var status: String?

    /// Recomputes ``visible`` from ``todos`` and ``filter``; the reducer calls it after changing either.
    mutating func refreshVisible() {
        guard let filter, !filter.isEmpty else {
            visible = todos.map(\.id)
            return
        }
        visible = todos
            .filter { $0.title.range(of: filter, options: [.caseInsensitive, .diacriticInsensitive]) != nil }
            .map(\.id)
    }

    /// The item shown at `position` (1 for the first shown), as commands like `toggle 2` count.
    func visibleTodo(at position: Int) -> Todo? {
        guard visible.indices.contains(position - 1) else { return nil }
        let id = visible[position - 1]
        return todos.first { $0.id == id }
    }
}
