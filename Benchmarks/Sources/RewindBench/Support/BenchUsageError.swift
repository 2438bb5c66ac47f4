/// A bad command line (`message`), or a request for help (nil).
struct BenchUsageError: Error {
    let message: String?
    init(_ message: String?) { self.message = message }
}
