@testable import RewindInspector
import Testing

/// The byte accounting behind `URLSessionTransport.queuedBytes`, which the pipeline reads for the outbox budget.
@Suite("SendBacklog: bytes sent and not yet written")
struct SendBacklogTests {
    @Test("counts what is admitted and releases what was written")
    func counts() {
        var backlog = SendBacklog(limit: 100)
        #expect(admit(30, into: &backlog) == true)
        #expect(admit(70, into: &backlog) == true)
        #expect(backlog.bytes == 100)
        backlog.release(30)
        #expect(backlog.bytes == 70)
        backlog.release(70)
        #expect(backlog.bytes == 0)
    }

    @Test("refuses a message that would pass the limit, counting nothing")
    func refusesOverLimit() {
        var backlog = SendBacklog(limit: 100)
        #expect(admit(60, into: &backlog) == true)
        #expect(admit(41, into: &backlog) == false)
        #expect(backlog.bytes == 60)
        #expect(admit(40, into: &backlog) == true)
    }

    @Test("accepts one message larger than the limit when nothing else is queued")
    func oversizedAlone() {
        var backlog = SendBacklog(limit: 100)
        #expect(admit(250, into: &backlog) == true)
        #expect(admit(1, into: &backlog) == false)
        backlog.release(250)
        #expect(admit(1, into: &backlog) == true)
    }

    /// `backlog.admit(count)` outside the `#expect` macro, which cannot call a mutating method.
    private func admit(_ count: Int, into backlog: inout SendBacklog) -> Bool {
        backlog.admit(count)
    }

    @Test("never goes below zero")
    func floor() {
        var backlog = SendBacklog(limit: 10)
        backlog.release(5)
        #expect(backlog.bytes == 0)
    }
}
