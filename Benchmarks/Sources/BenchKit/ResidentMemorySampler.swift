import Foundation

/// Samples the resident memory on its own thread every `interval` seconds until stopped, keeping the peak.
///
/// Threading: `start`/`stop`/`peakBytes` from any thread; the samples are guarded by a lock.
package final class ResidentMemorySampler: @unchecked Sendable {  // `peak`, `running` guarded by `lock`
    private let lock = NSLock()
    private let interval: Double
    private var peak: Double = 0
    private var running = false
    private var finished = true

    /// A sampler that reads every `interval` seconds once started.
    package init(interval: Double = 0.05) {
        self.interval = interval
    }

    /// Starts sampling on a new thread.
    package func start() {
        lock.lock()
        running = true
        finished = false
        peak = max(peak, ProcessMemory.residentBytes())
        lock.unlock()
        let thread = Thread { [self] in
            while true {
                let now = ProcessMemory.residentBytes()
                lock.lock()
                peak = max(peak, now)
                let keepGoing = running
                if !keepGoing { finished = true }
                lock.unlock()
                if !keepGoing { return }
                Thread.sleep(forTimeInterval: interval)
            }
        }
        thread.name = "bench.rss-sampler"
        thread.start()
    }

    /// Stops sampling (waits for the thread's last reading) and returns the peak resident memory seen, bytes.
    @discardableResult
    package func stop() -> Double {
        lock.lock()
        running = false
        lock.unlock()
        while true {
            lock.lock()
            let done = finished
            lock.unlock()
            if done { break }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return peakBytes
    }

    /// The highest resident memory seen so far, bytes.
    package var peakBytes: Double {
        lock.lock()
        defer { lock.unlock() }
        return peak
    }
}
