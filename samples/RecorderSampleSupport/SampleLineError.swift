/// A command line a sample cannot run: the sentence printed on standard error.
///
/// Threading: a value; any thread.
public struct SampleLineError: Error, CustomStringConvertible {
    /// The sentence.
    public let description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
