/// A one-line message shown above the footer until the next key press: the result of an action, or an error.
/// A plain value type.
public struct StatusMessage: Sendable, Hashable {
    /// The text.
    public var text: String
    /// Errors are shown in red (and bold, in monochrome).
    public var isError: Bool

    /// Creates a message.
    public init(_ text: String, isError: Bool = false) {
        self.text = text
        self.isError = isError
    }
}
