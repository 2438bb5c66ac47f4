import Rewind
import Testing
@testable import todo

/// The samples' clock (the `todo` copy; `login` has the same file). Waits are long (hours) so that real time never
/// ends one during a test: only fast-forwards do.
@Suite("samples: the fast-forward clock")
@MainActor
struct FastForwardClockTests {
    final class Log {
        var events: [String] = []
    }

    func yieldToEffects() async {
        for _ in 0..<10 { await Task.yield() }
    }

    @Test("a fast-forward wakes, in deadline order, every wait that ends by then, and no other")
    func fastForwardWakesDueWaits() async {
        let clock = FastForwardClock()
        let log = Log()
        for (name, hours) in [("three", 3), ("one", 1), ("two", 2)] {
            Task { @MainActor in
                try await clock.sleep(for: .seconds(hours * 3600))
                log.events.append(name)
            }
        }
        await yieldToEffects()
        #expect(clock.pendingCount == 3)
        clock.fastForward(by: .seconds(2 * 3600))
        await yieldToEffects()
        #expect(log.events == ["one", "two"])
        #expect(clock.pendingCount == 1)
        clock.fastForward(by: .seconds(3600))
        await yieldToEffects()
        #expect(log.events == ["one", "two", "three"])
    }

    @Test("time moves on by each fast-forward, and a wait started later counts from the new time")
    func timeAccumulates() async {
        let clock = FastForwardClock()
        let start = clock.now
        clock.fastForward(by: .seconds(3600))
        #expect(clock.now - start >= .seconds(3600))
        let log = Log()
        Task { @MainActor in
            try await clock.sleep(for: .seconds(3600))
            log.events.append("woke")
        }
        await yieldToEffects()
        clock.fastForward(by: .seconds(3599))
        await yieldToEffects()
        #expect(log.events.isEmpty)
        clock.fastForward(by: .seconds(1))
        await yieldToEffects()
        #expect(log.events == ["woke"])
    }

    @Test("a cancelled wait throws CancellationError and leaves the clock")
    func cancellation() async {
        let clock = FastForwardClock()
        let log = Log()
        let task = Task { @MainActor in
            do {
                try await clock.sleep(for: .seconds(3600))
                log.events.append("woke")
            } catch {
                log.events.append(error is CancellationError ? "cancelled" : "\(error)")
            }
        }
        await yieldToEffects()
        #expect(clock.pendingCount == 1)
        task.cancel()
        await yieldToEffects()
        #expect(log.events == ["cancelled"])
        #expect(clock.pendingCount == 0)
    }

    @Test("left alone, the clock follows real time")
    func realTime() async throws {
        let clock = FastForwardClock()
        let started = ContinuousClock.now
        try await clock.sleep(for: .milliseconds(20))
        #expect(ContinuousClock.now - started >= .milliseconds(20))
        #expect(clock.pendingCount == 0)
    }

    @Test("durations are read as milliseconds or seconds")
    func durations() {
        #expect(FastForwardClock.duration(parsing: "300ms") == .milliseconds(300))
        #expect(FastForwardClock.duration(parsing: "2s") == .seconds(2))
        #expect(FastForwardClock.duration(parsing: "1.5s") == .milliseconds(1500))
        #expect(FastForwardClock.duration(parsing: "0ms") == .zero)
        for bad in ["", "3", "ms", "s", "-1s", "nans", "1e30s", "2 s"] {
            #expect(FastForwardClock.duration(parsing: bad) == nil, "\(bad)")
        }
    }
}
