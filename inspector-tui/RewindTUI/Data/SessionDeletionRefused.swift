/// Why a saved session was not deleted from the sessions pane, in a sentence for the status line ("session … is
/// being recorded …"). A plain value; `Sendable`.
package struct SessionDeletionRefused: Error, Sendable, Hashable, CustomStringConvertible {
    /// The sentence shown in the status line.
    package let description: String

    /// A refusal saying `description`.
    package init(_ description: String) {
        self.description = description
    }

    /// The refusal of a timeline that does not delete sessions (`rewind open`, a viewer), pointing to the command
    /// line.
    package static func notDeletedHere(_ session: String) -> SessionDeletionRefused {
        SessionDeletionRefused("this timeline does not delete sessions: use 'rewind sessions --delete \(session)'")
    }
}
