import RewindWire
import Testing
@testable import RewindInspector

/// What a triggered capture holds (`RecentActions`): exactly the last N actions and the state before the first of
/// them, whatever frames they travelled in — or, where that state is not known, a little more from a state that is.
@Suite("Recent actions kept for a triggered capture")
struct RecentActionsTests {
    /// A counter app's action `seq`: the count goes from `seq - 1` to `seq`.
    private func event(_ seq: UInt64) -> ActionEvent {
        ActionEvent(seq: seq, time: Double(seq), action: ActionPayload(type: "increment", payload: .null),
                    patch: JSONPatch([.replace(path: try! JSONPointer("/count"), value: .int(Int64(seq)))]))
    }

    private func state(_ count: UInt64) -> JSONValue { ["count": .int(Int64(count))] }

    /// Records `events` as batches of `batch`, with a checkpoint after each batch.
    private func record(_ seqs: ClosedRange<UInt64>, batch: Int, into recent: inout RecentActions) {
        for chunk in Array(seqs).chunked(batch) {
            let frame = WireCodec.encode(AppMessage.batch(chunk.map(event)))
            recent.record(frame, through: chunk.last!)
            recent.checkpoint(seq: chunk.last!, state: state(chunk.last!))
        }
    }

    /// The numbers of the actions a window's messages carry.
    private func seqs(_ window: RecentActions.Window) throws -> [UInt64] {
        try window.messages.flatMap { frame -> [UInt64] in
            switch try WireCodec.decodeAppMessage(frame) {
            case .batch(let events): return events.map(\.seq)
            case .action(let event): return [event.seq]
            default: return []
            }
        }
    }

    @Test("keeps exactly the last N actions, cutting a batch that straddles the cut, with the state before them",
          arguments: [1, 3, 7, 64])
    func exactlyTheLastActions(batch: Int) throws {
        var recent = RecentActions(keep: 10, byteLimit: 1 << 20, seq: 0, state: state(0))
        record(1...95, batch: batch, into: &recent)
        let window = try #require(recent.capture())
        #expect(window.seq == 85)
        #expect(window.state == state(85))
        #expect(try seqs(window) == Array(86...95))
        #expect(window.through == 95)
    }

    @Test("fewer actions than N: all of them, from the state the recorder started with")
    func fewerThanKept() throws {
        var recent = RecentActions(keep: 10, byteLimit: 1 << 20, seq: 0, state: state(0))
        record(1...4, batch: 2, into: &recent)
        let window = try #require(recent.capture())
        #expect(window.seq == 0)
        #expect(window.state == state(0))
        #expect(try seqs(window) == [1, 2, 3, 4])
    }

    @Test("holds about twice N actions' frames however long the run")
    func memoryFollowsN() throws {
        var recent = RecentActions(keep: 10, byteLimit: 1 << 20, seq: 0, state: state(0))
        record(1...10_000, batch: 1, into: &recent)
        let window = try #require(recent.capture())
        #expect(try seqs(window) == Array(9_991...10_000))
        // Walked from the oldest generation kept: at most 2N + 1 frames.
        let frameBytes = WireCodec.encode(AppMessage.batch([event(5_000)])).count
        #expect(recent.bytes <= (2 * 10 + 1) * (frameBytes + 8), "bytes kept: \(recent.bytes)")
    }

    @Test("a cut inside a coalesced range starts just before the range instead")
    func cutInsideACoalescedRange() throws {
        var recent = RecentActions(keep: 3, byteLimit: 1 << 20, seq: 0, state: state(0))
        record(1...2, batch: 1, into: &recent)
        // Actions 3…6 without their states, closed by a snapshot after 6.
        recent.record(WireCodec.encode(AppMessage.dropped(Dropped(from: 3, to: 6))), through: 6)
        let empty = (3...6).map { ActionEvent(seq: $0, time: Double($0), action: event($0).action, patch: JSONPatch()) }
        recent.record(WireCodec.encode(AppMessage.batch(empty)), through: 6)
        recent.record(WireCodec.encode(AppMessage.snapshot(Snapshot(seq: 6, state: state(6)))), through: 6)
        recent.checkpoint(seq: 6, state: state(6))
        let window = try #require(recent.capture())
        // The last three (4, 5, 6) would start inside the range, where the state is unknown.
        #expect(window.seq == 2)
        #expect(window.state == state(2))
        #expect(try seqs(window) == [3, 4, 5, 6])
    }

    @Test("past its byte limit the oldest frames go; a capture still starts from a state known whole")
    func byteLimit() throws {
        var recent = RecentActions(keep: 1_000, byteLimit: 4_096, seq: 0, state: state(0))
        record(1...500, batch: 1, into: &recent)
        let window = try #require(recent.capture())
        let kept = try seqs(window)
        #expect(kept.last == 500)
        #expect(kept.count < 500)
        #expect(window.state == state(window.seq))
        #expect(kept.first == window.seq + 1)
    }
}

private extension Array {
    func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
