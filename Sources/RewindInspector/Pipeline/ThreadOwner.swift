import Foundation

/// The run-time check behind a "this thread only" contract: the owning thread claims it once, and every member that
/// may run only there calls ``check()``, which stops a debug build (tests, sanitizers) at the first call from another
/// thread. Release builds skip the check.
///
/// Threading: ``claim()`` once, from the owning thread, before any ``check()``; ``check()`` from any thread.
final class ThreadOwner: @unchecked Sendable {  // `owner` is written once, before any reader
    private var owner: pthread_t?

    /// Makes the calling thread the owner.
    func claim() {
        owner = pthread_self()
    }

    /// Stops a debug build when called from a thread other than the owner (once one claimed it).
    func check(file: StaticString = #fileID, line: UInt = #line) {
        #if DEBUG
        if let owner, pthread_equal(owner, pthread_self()) == 0 {
            assertionFailure("called off its owning thread", file: file, line: line)
        }
        #endif
    }
}
