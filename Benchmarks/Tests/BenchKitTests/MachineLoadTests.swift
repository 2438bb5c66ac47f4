import BenchKit
import Testing

@Suite("MachineLoad")
struct MachineLoadTests {
    #if os(Linux)
    @Test("a busy interval shows this process's share and a bounded share for the others")
    func shares() {
        let before = MachineLoad.snapshot()
        let end = MonotonicClock.seconds() + 0.2
        var spins = 0
        while MonotonicClock.seconds() < end { spins += 1 }
        let after = MachineLoad.snapshot()
        #expect(spins > 0)
        #expect(after.ownShare(since: before) > 0)
        #expect(after.ownShare(since: before) <= 1)
        #expect((0...1).contains(after.othersShare(since: before)))
    }
    #endif
}
