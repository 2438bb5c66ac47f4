import Foundation

/// Runs async work to its end from a synchronous command's `run()` (the command tree is synchronous): the
/// calling thread waits on a semaphore while the work runs on the concurrency pool.
///
/// Threading: `run` blocks the calling thread, which must not be one of the pool's.
enum BlockingTask {
    /// Runs `work` and waits for it; rethrows its error.
    static func run(_ work: @escaping @Sendable () async throws -> Void) throws {
        let outcome = Outcome()
        Task {
            do {
                try await work()
                outcome.finish(nil)
            } catch {
                outcome.finish(error)
            }
        }
        try outcome.wait()
    }

    /// The end of the work: its error, if any, handed from the task to the waiting thread.
    private final class Outcome: @unchecked Sendable {  // `error` is written before `done` is signalled, read after
        private let done = DispatchSemaphore(value: 0)
        private var error: (any Error)?

        func finish(_ error: (any Error)?) {
            self.error = error
            done.signal()
        }

        func wait() throws {
            done.wait()
            if let error { throw error }
        }
    }
}
