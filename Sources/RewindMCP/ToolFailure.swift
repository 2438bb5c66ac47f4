/// A tool call that could not be answered, with what to do about it: the server turns it into a tool result with
/// `isError: true` (not a protocol error), so that an agent reads the message and can act on it.
///
/// Threading: an immutable value; `Sendable`.
package struct ToolFailure: Error, Sendable, CustomStringConvertible {
    /// The message: what went wrong and what to do.
    package let description: String

    /// A failure saying `message`.
    package init(_ message: String) {
        description = message
    }
}
