import Dispatch
import Foundation

/// Catches SIGINT and SIGTERM from the moment it is made, so that a command can shut down cleanly when one arrives:
/// made before the daemon starts listening, it cannot miss a signal sent as soon as "listening" is printed (before,
/// one sent in that instant was ignored and the daemon kept running).
///
/// Threading: make it on any thread; `waitForTermination()` blocks the calling thread; the signals are taken on
/// a global queue.
final class SignalWaiter: @unchecked Sendable {  // `received` is set once before the semaphore is signalled
    private let semaphore = DispatchSemaphore(value: 0)
    private var sources: [any DispatchSourceSignal] = []
    private var received: Int32 = 0

    /// Starts catching SIGINT and SIGTERM (their default action, ending the process, is off from now on).
    init() {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [unowned self] in
                guard received == 0 else { return }
                received = number
                semaphore.signal()
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Waits for SIGINT or SIGTERM (one that arrived since `init` counts) and returns the signal number.
    @discardableResult
    func waitForTermination() -> Int32 {
        semaphore.wait()
        sources.forEach { $0.cancel() }
        return received
    }
}
