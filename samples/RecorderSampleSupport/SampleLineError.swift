/// A command line a sample cannot run: the sentence printed on standard error.
///
/// Threading: a value; any thread.
package struct SampleLineError: Error, CustomStringConvertible {
    /// The sentence.
    package let description: String

    /// An error saying `description`.
    package init(_ description: String) { self.description = description }
}
