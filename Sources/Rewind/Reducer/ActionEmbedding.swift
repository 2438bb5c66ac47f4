/// How a child action type sits inside a parent action type: `embed` wraps a child action into the parent (usually
/// an enum case constructor), `extract` gets it back out (nil for parent actions of other kinds).
///
/// ```swift
/// let todo = ActionEmbedding<AppAction, TodoAction>(
///     embed: AppAction.todo,
///     extract: { if case .todo(let action) = $0 { action } else { nil } }
/// )
/// ```
///
/// Threading: `Sendable`; its functions run on the main actor.
public struct ActionEmbedding<Parent, Child>: Sendable {
    /// Wraps a child action into the parent action type.
    public let embed: @MainActor (Child) -> Parent
    /// The child action inside `parent`, or nil when `parent` is not one.
    public let extract: @MainActor (Parent) -> Child?

    /// Creates an embedding from its two functions.
    public init(embed: @escaping @MainActor (Child) -> Parent, extract: @escaping @MainActor (Parent) -> Child?) {
        self.embed = embed
        self.extract = extract
    }
}
