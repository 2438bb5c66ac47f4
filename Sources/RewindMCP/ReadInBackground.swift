import Foundation

/// Reads a pipe to its end on a background thread, so that a child's full pipe never blocks it.
///
/// Threading: `wait()` may be called once, from any thread; the bytes are handed over through a semaphore.
final class ReadInBackground: @unchecked Sendable {  // `bytes` is written before `done` is signalled, read after
    private var bytes = Data()
    private let done = DispatchSemaphore(value: 0)

    /// Starts reading `handle`.
    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            bytes = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    /// The bytes read, once the pipe is closed.
    func wait() -> Data {
        done.wait()
        return bytes
    }
}
