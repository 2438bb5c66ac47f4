/// A command a sample could not run, as one sentence.
package struct SampleError: Error, CustomStringConvertible {
    /// The sentence.
    package let description: String

    /// An error saying `description`.
    package init(_ description: String) { self.description = description }
}
