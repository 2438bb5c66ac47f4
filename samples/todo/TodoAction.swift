/// What can happen to the list: the user's intents, and the results effects send back.
///
/// Items are named by id, not position, so that a recorded action means the same thing when it is replayed.
/// Threading: a value; `Sendable`.
enum TodoAction: Codable, Equatable, Sendable {
    /// Add an item titled `title` (it gets its id from the generator, then comes back as ``added(_:)``).
    case add(title: String)
    /// An item with its id, ready to append.
    case added(Todo)
    /// Mark an item done, or not done again.
    case toggle(id: Int)
    /// Delete an item.
    case remove(id: Int)
    /// The search field changed; the filter follows once typing pauses (``applySearch(query:)``).
    case search(query: String)
    /// The debounced search: filter the list by `query`.
    case applySearch(query: String)
    /// Empty the search field and show everything.
    case clearSearch
    /// Write the list to its file.
    case save
    /// The list was written: `count` items.
    case saved(count: Int)
    /// The list could not be written.
    case saveFailed(reason: String)
    /// Replace the list with the one in its file.
    case load
    /// The list read from the file.
    case loaded([Todo])
    /// The file could not be read.
    case loadFailed(reason: String)
}
