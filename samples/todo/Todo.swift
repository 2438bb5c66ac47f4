/// One item of the list.
///
/// Threading: a value; `Sendable`.
struct Todo: Codable, Equatable, Sendable, Identifiable {
    /// Given by the injected id generator (see ``SequentialIDs``), so the same commands give the same ids.
    let id: Int
    var title: String
    var isDone = false
}
