@testable import RewindInspector
import Testing

/// How often the pipeline looks at the outbox, as the app's dispatch rate changes.
@Suite("PollSchedule: the pipeline polls at a quarter of the app's dispatch interval")
struct PollScheduleTests {
    private static let millisecond: UInt64 = 1_000_000

    private func schedule(dispatchingEvery interval: UInt64, times: Int) -> (PollSchedule, UInt64) {
        var schedule = PollSchedule()
        var now: UInt64 = 1_000 * Self.millisecond
        for _ in 0..<times {
            schedule.observeDispatch(at: now)
            now += interval
        }
        return (schedule, now - interval)
    }

    @Test("before two dispatches it polls at the slowest rate")
    func startsSlow() {
        var schedule = PollSchedule()
        #expect(schedule.wait(now: 5 * Self.millisecond) == 0.004)
        schedule.observeDispatch(at: 5 * Self.millisecond)
        #expect(schedule.wait(now: 5 * Self.millisecond) == 0.004)
    }

    @Test("an app dispatching every 2 ms is polled every 0.5 ms")
    func quarterOfTheInterval() {
        let (schedule, last) = schedule(dispatchingEvery: 2 * Self.millisecond, times: 10)
        #expect(abs(schedule.wait(now: last) - 0.000_5) < 1e-9)
    }

    @Test("the wait stays between the fastest and the slowest")
    func bounded() {
        let (fast, fastLast) = schedule(dispatchingEvery: 600_000, times: 50)
        #expect(fast.wait(now: fastLast) == 0.000_25)
        let (slow, slowLast) = schedule(dispatchingEvery: 100 * Self.millisecond, times: 5)
        #expect(slow.wait(now: slowLast) == 0.004)
    }

    @Test("an app dispatching more often than every 0.5 ms is polled every millisecond, in batches")
    func batchesAFastApp() {
        let (every100, last100) = schedule(dispatchingEvery: 100_000, times: 50)
        #expect(every100.wait(now: last100) == 0.001)
        let (every400, last400) = schedule(dispatchingEvery: 400_000, times: 50)
        #expect(every400.wait(now: last400) == 0.001)
        // Once it pauses for longer than that, the quarter-interval rule is back.
        #expect(abs(every100.wait(now: last100 + 2 * Self.millisecond) - 0.000_5) < 1e-9)
    }

    @Test("an app that stops dispatching is soon polled slowly again")
    func slowsDownWhenQuiet() {
        let (schedule, last) = schedule(dispatchingEvery: Self.millisecond, times: 100)
        #expect(schedule.wait(now: last) == 0.000_25)
        #expect(abs(schedule.wait(now: last + 8 * Self.millisecond) - 0.002) < 1e-9)
        #expect(schedule.wait(now: last + 100 * Self.millisecond) == 0.004)
    }

    @Test("the estimate follows a change of rate within a few dispatches")
    func followsTheRate() {
        var (schedule, now) = schedule(dispatchingEvery: 40 * Self.millisecond, times: 10)
        #expect(schedule.wait(now: now) == 0.004)
        for _ in 0..<20 {
            now += Self.millisecond
            schedule.observeDispatch(at: now)
        }
        #expect(schedule.wait(now: now) < 0.000_3)
        for _ in 0..<20 {
            now += 100_000
            schedule.observeDispatch(at: now)
        }
        #expect(schedule.wait(now: now) == 0.001)
    }
}
