import Foundation
@testable import RewindInspector
import Testing

/// An idle pipeline parks instead of polling the outbox; the app's first push after that wakes it, once.
@Suite("Outbox: a parked pipeline is woken by the first push, once per idle period")
struct OutboxParkingTests {
    private func outbox() -> Outbox<Int, Int> {
        Outbox<Int, Int>(budgetBytes: 1 << 21)
    }

    private func push(_ outbox: Outbox<Int, Int>, _ seq: UInt64) {
        outbox.push(seq: seq, finishedNanos: seq, action: Int(seq), source: nil, state: Int(seq), reducerNanos: 0)
    }

    /// What a drain on its own thread returned, and when.
    private final class DrainResult: @unchecked Sendable {  // written by the drainer before `done` is signalled
        var entries = 0
        let done = DispatchSemaphore(value: 0)
    }

    @Test("a parked drain returns as soon as the first push arrives, and 100 pushes wake it once")
    func firstPushWakesOnce() throws {
        let outbox = outbox()
        let result = DrainResult()
        // A thread of its own, as the pipeline's (a task blocked in the drain could starve the test's own).
        let drainer = Thread {
            result.entries = outbox.drain(waitingUpTo: 20, parking: true).entries.count
            result.done.signal()
        }
        drainer.start()
        // Wait until it has parked (bounded), then push.
        let deadline = Date(timeIntervalSinceNow: 10)
        while !outbox.queue.withLock({ $0.parked }) && Date() < deadline { usleep(1_000) }
        try #require(outbox.queue.withLock { $0.parked }, "the drain did not park")
        let started = Date()
        for seq in 1...100 { push(outbox, UInt64(seq)) }
        #expect(result.done.wait(timeout: .now() + 10) == .success, "the push did not wake the parked pipeline")
        let waited = Date().timeIntervalSince(started)
        #expect(result.entries > 0)
        #expect(waited < 10)
        #expect(outbox.parkedWakeUps == 1)
        // The rest are still there, and draining them did not park: no further wake-ups.
        _ = outbox.drain(waitingUpTo: 0)
        for seq in 101...200 { push(outbox, UInt64(seq)) }
        #expect(outbox.parkedWakeUps == 1)
    }

    @Test("pushes to a pipeline that polls (not parked) make no wake-up")
    func pollingIsNotWoken() {
        let outbox = outbox()
        _ = outbox.drain(waitingUpTo: 0.001)
        for seq in 1...50 { push(outbox, UInt64(seq)) }
        #expect(outbox.parkedWakeUps == 0)
        #expect(outbox.drain(waitingUpTo: 0).entries.count == 50)
    }

    @Test("a parked drain with nothing pushed ends at its time-out")
    func parkedWaitIsBounded() {
        let outbox = outbox()
        let started = Date()
        let drained = outbox.drain(waitingUpTo: 0.2, parking: true)
        #expect(drained.entries.isEmpty)
        #expect(Date().timeIntervalSince(started) >= 0.15)
        #expect(outbox.parkedWakeUps == 0)
    }
}
