import Foundation
@testable import RewindInspector
import Testing

/// An idle pipeline parks instead of polling the outbox; the app's first push after that wakes it, once.
@Suite("Outbox: a parked pipeline is woken by the first push, once per idle period")
struct OutboxParkingTests {
    private func outbox() -> Outbox<Int, Int> {
        Outbox<Int, Int>(stateBudgetBytes: 1 << 20, actionBudgetBytes: 1 << 20)
    }

    private func push(_ outbox: Outbox<Int, Int>, _ seq: UInt64) {
        outbox.push(seq: seq, finishedNanos: seq, action: Int(seq), source: nil, state: Int(seq), reducerNanos: 0)
    }

    @Test("a parked drain returns as soon as the first push arrives, and 100 pushes wake it once")
    func firstPushWakesOnce() async throws {
        let outbox = outbox()
        let started = Date()
        let drainer = Task.detached { outbox.drain(waitingUpTo: 20, parking: true) }
        try await Task.sleep(nanoseconds: 100_000_000)   // let it park
        for seq in 1...100 { push(outbox, UInt64(seq)) }
        let drained = await drainer.value
        let waited = Date().timeIntervalSince(started)
        #expect(!drained.entries.isEmpty)
        #expect(waited < 10, "the push did not wake the parked pipeline (waited \(waited) s)")
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
