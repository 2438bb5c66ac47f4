import Foundation

/// Lines of standard input as an asynchronous sequence, read on a background thread so that the main actor stays
/// free (the inspector applies the daemon's commands there).
enum StandardInputLines {
    /// A stream of the lines still to come; it finishes at end of input.
    static func stream() -> AsyncStream<String> {
        AsyncStream { continuation in
            let thread = Thread {
                while let line = readLine(strippingNewline: true) {
                    continuation.yield(line)
                }
                continuation.finish()
            }
            thread.name = "sample.stdin"
            thread.start()
        }
    }
}
