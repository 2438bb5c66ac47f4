/// Why a saved session was not deleted from the sessions pane, in a sentence for the status line ("session … is
/// being recorded …"). A plain value; `Sendable`.
public struct SessionDeletionRefused: Error, Sendable, Hashable, CustomStringConvertible {
    /// The sentence shown in the status line.
    public let description: String

    /// A refusal saying `description`.
    public init(_ description: String) {
        self.description = description
    }
}
