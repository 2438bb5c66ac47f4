/// A one-line message shown above the footer until the next key press: the result of an action, or an error.
/// A plain value type.
package struct StatusMessage: Sendable, Hashable {
    /// The text.
    package var text: String
    /// Errors are shown in red (and bold, in monochrome).
    package var isError: Bool

    /// Creates a message.
    package init(_ text: String, isError: Bool = false) {
        self.text = text
        self.isError = isError
    }
}
