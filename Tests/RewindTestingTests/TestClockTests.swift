import Rewind
import RewindTesting
import Testing

@Suite("TestClock: time that moves only when the test says so")
@MainActor
struct TestClockTests {
    @Test("a sleeper wakes only once the clock has advanced past its deadline")
    func wakesAtDeadline() async {
        let clock = TestClock()
        let log = EventLog()
        let task = Task { @MainActor in
            try await clock.sleep(for: .seconds(2))
            log.append("woke at \(clock.now)")
        }
        await clock.advance(by: .seconds(1))
        #expect(log.events.isEmpty)
        #expect(clock.pendingSleepCount == 1)
        await clock.advance(by: .seconds(1))
        #expect(log.events == ["woke at 2.0 seconds"])
        _ = try? await task.value
    }

    @Test("sleepers wake in deadline order, each at its own time")
    func order() async {
        let clock = TestClock()
        let log = EventLog()
        for seconds in [3, 1, 2] {
            Task { @MainActor in
                try await clock.sleep(for: .seconds(seconds))
                log.append("\(seconds)s at \(clock.now)")
            }
        }
        await clock.advance(by: .seconds(5))
        #expect(log.events == ["1s at 1.0 seconds", "2s at 2.0 seconds", "3s at 3.0 seconds"])
        #expect(clock.now == .seconds(5))
    }

    @Test("a cancelled sleeper throws CancellationError and stops waiting")
    func cancellation() async {
        let clock = TestClock()
        let task = Task { @MainActor in try await clock.sleep(for: .seconds(1)) }
        await clock.advance(by: .zero)
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(clock.pendingSleepCount == 0)
    }

    @Test("run advances until nothing is waiting")
    func run() async {
        let clock = TestClock()
        let log = EventLog()
        Task { @MainActor in
            try await clock.sleep(for: .seconds(10))
            log.append("first")
            try await clock.sleep(for: .seconds(10))
            log.append("second")
        }
        await clock.run()
        #expect(log.events == ["first", "second"])
        #expect(clock.now == .seconds(20))
    }
}

@MainActor
final class EventLog {
    private(set) var events: [String] = []

    func append(_ event: String) {
        events.append(event)
    }
}
