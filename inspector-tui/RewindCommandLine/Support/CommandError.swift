/// A failure a command reports as one clear line (`Error: …` on standard error, exit status 1), never a trace.
struct CommandError: Error, CustomStringConvertible {
    /// The sentence shown to the user.
    let description: String

    init(_ description: String) { self.description = description }
}
