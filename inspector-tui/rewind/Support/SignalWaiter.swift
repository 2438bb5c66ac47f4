import Dispatch
import Foundation

/// Blocks the calling thread until the process receives SIGINT or SIGTERM, so a command can shut down cleanly.
enum SignalWaiter {
    /// Waits for SIGINT or SIGTERM and returns the signal number.
    @discardableResult
    static func waitForTermination() -> Int32 {
        let received = DispatchSemaphore(value: 0)
        let box = SignalBox()
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                box.set(number)
                received.signal()
            }
            source.resume()
            sources.append(source)
        }
        received.wait()
        sources.forEach { $0.cancel() }
        return box.value
    }
}

/// The signal that arrived, handed from the signal queue to the waiting thread.
private final class SignalBox: @unchecked Sendable {  // written once before the semaphore is signalled
    private(set) var value: Int32 = 0
    func set(_ number: Int32) { value = number }
}
