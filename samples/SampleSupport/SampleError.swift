/// A command a sample could not run, as one sentence.
public struct SampleError: Error, CustomStringConvertible {
    /// The sentence.
    public let description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
