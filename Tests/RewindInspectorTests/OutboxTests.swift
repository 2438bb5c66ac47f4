import Rewind
@testable import RewindInspector
import Testing

/// The outbox under pressure: states are given up before actions, and an action is lost only when the separate
/// action budget is full.
@Suite("Outbox: states are given up before actions")
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

    @Test("when the state budget is full, later actions are kept without their states, none lost")
    func statesGoFirst() {
        let outboxForThree = Box(stateBudgetBytes: 3 * (1_000 + MemoryLayout<Box.KeptState>.stride),
                                 actionBudgetBytes: 1 << 30)
        outboxForThree.updateCosts(stateBytes: 1_000, actionBytes: 10)
        // The queue holds states for 3 entries; 10,000 more actions all keep their place.
        push(outboxForThree, 1...10_003)
        let (entries, lostAfter) = drainAll(outboxForThree)
        #expect(entries.map(\.seq) == Array(1...10_003))
        #expect(entries.prefix(3).allSatisfy { $0.state != nil })
        #expect(entries.dropFirst(3).allSatisfy { $0.state == nil && $0.action != nil })
        #expect(entries.allSatisfy { $0.lostBefore == 0 })
        #expect(lostAfter == 0)
        #expect(outboxForThree.isEmpty, "every charge was released")
    }

    @Test("an action is lost only when the action budget is full, and the loss is counted where it happened")
    func actionsLastResort() {
        let record = Box.recordBytes
        let outbox = Box(stateBudgetBytes: 1, actionBudgetBytes: 5 * record)
        outbox.updateCosts(stateBytes: 1_000, actionBytes: 0)
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
}
