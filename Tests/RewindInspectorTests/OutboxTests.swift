import Rewind
@testable import RewindInspector
import Testing

/// The outbox under pressure: one memory budget for states, actions and what the pipeline holds; states are given up
/// before actions, and an action is lost only when the budget cannot hold it.
@Suite("Outbox: one budget, states given up before actions")
struct OutboxTests {
    typealias Box = Outbox<[Int], Int>

    private func push(_ outbox: Box, _ seqs: ClosedRange<UInt64>) {
        for seq in seqs {
            outbox.push(seq: seq, finishedNanos: seq, action: Int(seq), source: SourceLocation(file: "OutboxTests.swift", line: 1), state: [Int(seq)],
                        reducerNanos: 0)
        }
    }

    private func drainAll(_ outbox: Box) -> (entries: [Box.Entry], lostAfter: UInt64) {
        var entries: [Box.Entry] = []
        var lostAfter: UInt64 = 0
        while true {
            let drained = outbox.drain(waitingUpTo: 0, limit: 100)
            entries += drained.entries
            lostAfter += drained.lostAfter
            outbox.release(drained.charge)
            if drained.isFinal { break }
        }
        return (entries, lostAfter)
    }

    /// A state charge such that exactly `count` states fit in a quarter of `budget` (the states' share).
    private func charge(forStates count: Int, in budget: Int) -> Int {
        budget / 4 / count - MemoryLayout<Box.KeptState>.stride - 1
    }

    @Test("when the states' quarter of the budget is full, later actions are kept without their states, none lost")
    func statesGoFirst() {
        let budget = 8 << 20
        let outbox = Box(budgetBytes: budget)
        outbox.updateCosts(stateCharge: charge(forStates: 3, in: budget), actionBytes: 10, reservedBytes: 0)
        // The queue holds states for 3 entries; 10,000 more actions all keep their place.
        push(outbox, 1...10_003)
        let (entries, lostAfter) = drainAll(outbox)
        #expect(entries.map(\.seq) == Array(1...10_003))
        #expect(entries.prefix(3).allSatisfy { $0.state != nil })
        #expect(entries.dropFirst(3).allSatisfy { $0.state == nil && $0.action != nil })
        #expect(entries.allSatisfy { $0.lostBefore == 0 })
        #expect(lostAfter == 0)
        #expect(outbox.isEmpty, "every charge was released")
    }

    @Test("the states held before the pipeline learnt what states share are charged like the next ones once it has")
    func heldStatesRechargedOnceSharingIsKnown() {
        let budget = 64 << 20
        let outbox = Box(budgetBytes: budget)
        // Queued on trust (a sixty-fourth of the budget each) while the pipeline prepared: the states' quarter is full.
        push(outbox, 1...20)
        // Their whole size, measured first, changes nothing for the states held (a lowered charge waits for drains)…
        outbox.updateCosts(stateCharge: 1 << 20, actionBytes: 0, reservedBytes: 0)
        push(outbox, 21...21)
        // …then what consecutive states share: the held states are charged it too, and states are kept again.
        outbox.updateCosts(stateCharge: 10_000, actionBytes: 0, reservedBytes: 0, rechargeHeldStates: true)
        push(outbox, 22...1_000)
        let (entries, _) = drainAll(outbox)
        #expect(entries.prefix(15).allSatisfy { $0.state != nil })
        #expect(entries[20].state == nil, "the quarter was full of states charged on trust")
        #expect(entries.dropFirst(21).allSatisfy { $0.state != nil }, "979 states of 10 kB fit in the quarter")
        #expect(outbox.isEmpty, "every charge was released")
    }

    @Test("an action is lost only when the budget cannot hold it, and the loss is counted where it happened")
    func actionsLastResort() {
        let record = Box.recordBytes
        let outbox = Box(budgetBytes: 5 * record)
        outbox.updateCosts(stateCharge: 1_000, actionBytes: 0, reservedBytes: 0)
        push(outbox, 1...8)
        var drained = outbox.drain(waitingUpTo: 0)
        #expect(drained.entries.map(\.seq) == [1, 2, 3, 4, 5])
        #expect(drained.entries.allSatisfy { $0.state == nil })
        #expect(drained.lostAfter == 3 && drained.latestSeq == 8, "actions 6–8 did not fit")
        outbox.release(drained.charge)
        push(outbox, 9...10)
        outbox.pushSnapshot(afterSeq: 10, finishedNanos: 11, state: [10], reason: Box.closingReason)
        drained = outbox.drain(waitingUpTo: 0)
        #expect(drained.entries.map(\.seq) == [9, 10, 10])
        #expect(drained.entries.map(\.lostBefore) == [0, 0, 0])
        #expect(drained.entries.last?.state == [10], "a snapshot keeps its state over the budget")
    }

    @Test("what the pipeline reserves comes off the budget, down to a quarter of it")
    func reservedBytesShrinkTheQueue() {
        let record = Box.recordBytes
        let outbox = Box(budgetBytes: 40 * record)
        outbox.updateCosts(stateCharge: 1 << 20, actionBytes: 0, reservedBytes: 30 * record)
        push(outbox, 1...20)
        #expect(drainAll(outbox).entries.count == 10, "40 − 30 records' worth of room")
        outbox.updateCosts(stateCharge: 1 << 20, actionBytes: 0, reservedBytes: 1 << 30)
        push(outbox, 21...40)
        #expect(drainAll(outbox).entries.count == 10, "never less than a quarter of the budget")
    }

    @Test("a measurement that raises the state charge applies to the states already held: no more are kept until they go")
    func raisedChargeAppliesToHeldStates() {
        let budget = 8 << 20
        let outbox = Box(budgetBytes: budget)
        outbox.updateCosts(stateCharge: charge(forStates: 100, in: budget), actionBytes: 0, reservedBytes: 0)
        push(outbox, 1...10)
        // The state turned out ten times larger: the ten held fill the states' share.
        outbox.updateCosts(stateCharge: charge(forStates: 10, in: budget), actionBytes: 0, reservedBytes: 0)
        push(outbox, 11...20)
        var entries = drainAll(outbox).entries
        #expect(entries.prefix(10).allSatisfy { $0.state != nil })
        #expect(entries.dropFirst(10).allSatisfy { $0.state == nil }, "nothing kept while the held states fill the share")
        push(outbox, 21...22)
        entries = drainAll(outbox).entries
        #expect(entries.allSatisfy { $0.state != nil }, "once they are gone, states are kept again")
    }

    @Test("while the pipeline refuses states (resident memory grew past the budget) every entry keeps its action only")
    func refusedStates() {
        let outbox = Box(budgetBytes: 64 << 20)
        outbox.updateCosts(stateCharge: 100, actionBytes: 0, reservedBytes: 0)
        outbox.refuseStates(true)
        push(outbox, 1...5)
        outbox.pushSnapshot(afterSeq: 5, finishedNanos: 6, state: [5], reason: Box.closingReason)
        let entries = drainAll(outbox).entries
        #expect(entries.prefix(5).allSatisfy { $0.state == nil && $0.action != nil })
        #expect(entries.last?.state == [5], "a snapshot still keeps its state")
        outbox.refuseStates(false)
        push(outbox, 6...6)
        #expect(drainAll(outbox).entries.first?.state == [6])
    }

    @Test("until the pipeline measured the state, only a few dozen states are kept on trust")
    func unmeasuredStatesAreChargedConservatively() {
        let outbox = Box(budgetBytes: 64 << 20)
        push(outbox, 1...1_000)
        let kept = drainAll(outbox).entries.filter { $0.state != nil }.count
        #expect(kept > 0 && kept <= 32, "\(kept) states kept before any measurement")
    }

    @Test("a long queue drains in order across chunks and keeps little storage afterwards")
    func chunks() {
        var queue = ChunkedQueue<Int>()
        var expected = 0
        for round in 0..<3 {
            for value in 0..<(ChunkedQueue<Int>.chunkSize * 5 + 17) { queue.append(round * 1_000_000 + value) }
            while !queue.isEmpty {
                for value in queue.removeFirst(upTo: 333) {
                    #expect(value == round * 1_000_000 + expected)
                    expected += 1
                }
            }
            expected = 0
        }
        #expect(queue.middle.isEmpty)
        #expect(queue.head.capacity + queue.tail.capacity + (queue.spare?.capacity ?? 0)
                <= 3 * ChunkedQueue<Int>.chunkSize * 2)
    }

    @Test("the last two elements are found wherever the chunks' edges fall, as the queue fills and drains")
    func lastTwo() {
        var queue = ChunkedQueue<Int>()
        var model: [Int] = []
        var next = 0
        let chunk = ChunkedQueue<Int>.chunkSize
        // Fill past two chunk edges, then drain across them, checking at every step near an edge.
        for step in 0..<(3 * chunk + 5) {
            queue.append(next)
            model.append(next)
            next += 1
            if step % chunk < 3 || step % chunk > chunk - 3 {
                #expect(queue.last == model.last)
                #expect(queue.secondLast == (model.count >= 2 ? model[model.count - 2] : nil), "after \(model.count)")
            }
        }
        while !queue.isEmpty {
            let taken = queue.removeFirst(upTo: chunk - 1)
            model.removeFirst(taken.count)
            #expect(queue.last == model.last)
            #expect(queue.secondLast == (model.count >= 2 ? model[model.count - 2] : nil), "\(model.count) left")
        }
        queue.append(1)
        #expect(queue.secondLast == nil)
        queue.append(2)
        #expect(queue.secondLast == 1)
    }
}
