/// Why the daemon could not start, or why a request to it failed, as one sentence a user can act on.
public struct DaemonError: Error, CustomStringConvertible, Sendable {
    /// The sentence.
    public let description: String

    /// An error with that sentence.
    public init(_ description: String) { self.description = description }
}
